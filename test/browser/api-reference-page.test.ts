// A person opens /docs in a real browser and finds every operation of the contract listed.
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { startTestService, type TestService } from '../support/service.js';
import { chromiumAvailable, launchChromium, CHROMIUM_PATH } from '../support/chromium.js';
import { loadOpenApiDocument } from '../../server/src/openapi/openapi-document.js';

describe('the API reference page in Chromium', function () {
  this.timeout(60_000);
  let service: TestService;
  let browser: Browser;

  before(async function () {
    if (!chromiumAvailable()) {
      // CI installs Debian's chromium (.ci/run); a developer machine may not have it.
      if (process.env.CI) throw new Error(`no Chromium at ${CHROMIUM_PATH}: apt-get install chromium`);
      console.warn(`    skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium to run it)`);
      this.skip();
    }
    service = await startTestService();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await service?.close();
  });

  it('renders every operation of the contract by its summary, reaching no other origin', async () => {
    const page = await browser.newPage();
    const failures: string[] = [];
    const fetched: string[] = [];
    page.on('requestfinished', (request) => fetched.push(request.url()));
    // Redoc's footer always asks a CDN for its logo; the page's CSP blocks it, which is the point.
    page.on('requestfailed', (request) => {
      if (!['net::ERR_BLOCKED_BY_CSP', 'csp'].includes(request.failure()?.errorText ?? '')) failures.push(`${request.url()}: ${request.failure()?.errorText}`);
    });
    page.on('pageerror', (error) => failures.push(`page error: ${error.message}`));
    await page.goto(`${service.baseUrl}/docs`);
    await page.waitForSelector('.menu-content', { timeout: 30_000 });
    const { document } = loadOpenApiDocument() as unknown as { document: { paths: Record<string, Record<string, { summary: string }>> } };
    const summaries = Object.values(document.paths).flatMap((item) => ['get', 'post', 'delete'].flatMap((m) => (item[m] ? [item[m]!.summary] : [])));
    // Tags are collapsed in the menu; their operations are in it all the same.
    const menu = (await page.locator('.menu-content').textContent()) ?? '';
    for (const summary of summaries) expect(menu, summary).to.include(summary);
    expect(await page.title()).to.equal('ofctx Integration API reference');
    expect(failures).to.deep.equal([]);
    expect(fetched.filter((url) => !url.startsWith(service.baseUrl) && !url.startsWith('blob:') && !url.startsWith('data:'))).to.deep.equal([]);
    await page.screenshot({ path: `${process.env.TMPDIR ?? '/tmp'}/ofctx-docs.png` });
  });
});
