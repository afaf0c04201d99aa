// An operator uses the console in a real browser (Debian's Chromium): signs in by a one-time
// link, finds the pages by keyboard, sees no Content-Security-Policy violation; a second use
// of the link, a forged CSRF token and a partner's bearer token get nothing.
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestService } from '../support/service.js';
import { chromiumAvailable, launchChromium, CHROMIUM_PATH } from '../support/chromium.js';
import { consoleLinkToken } from '../support/console.js';
import { tokenFor } from '../support/http.js';

describe('the operators\' console in Chromium', function () {
  this.timeout(90_000);
  let service: TestService;
  let browser: Browser;
  let orgId: string;
  let facilityId: string;

  before(async function () {
    if (!chromiumAvailable()) {
      if (process.env.CI) throw new Error(`no Chromium at ${CHROMIUM_PATH}: apt-get install chromium`);
      console.warn(`    skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium to run it)`);
      this.skip();
    }
    service = await startTestService();
    browser = await launchChromium();
    orgId = (await service.seed.org('Maple Care')).id;
    facilityId = (await service.seed.facility(orgId, 'Maple House')).id;
  });
  after(async () => {
    await browser?.close();
    await service?.close();
  });

  /** A page that fails the test on any page error, CSP violation or request to another origin. */
  async function watchedPage(): Promise<{ page: Page; problems: string[] }> {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('request', (request) => {
      if (!request.url().startsWith(service.baseUrl) && !request.url().startsWith('data:')) problems.push(`request to ${request.url()}`);
    });
    return { page, problems };
  }

  async function signIn(page: Page): Promise<string> {
    const token = await consoleLinkToken(service.running.app.db, orgId, 'Ana Operator');
    const link = `${service.baseUrl}/console/sign-in?token=${token}`;
    await page.goto(link);
    await page.getByRole('button', { name: 'Sign in to the console' }).click();
    await page.waitForURL(`${service.baseUrl}/console`);
    return link;
  }

  // A click that navigates returns once the next page starts loading: what a test reads of that
  // page it waits for (its heading, by name), or it could read the page before, or none yet.
  it('signs in by link, shows the overview styled and navigable by keyboard, and refuses the link a second time', async () => {
    const { page, problems } = await watchedPage();
    const link = await signIn(page);
    expect(await page.title()).to.equal('Overview · ofctx console');
    expect(await page.getByRole('heading', { level: 1, name: 'Overview' }).isVisible()).to.equal(true);
    expect(await page.getByText('Ana Operator · Maple Care').isVisible()).to.equal(true);
    // Pico's stylesheet applied (its font stack), from this service.
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).to.include('system-ui');
    // The first Tab reaches the skip link, the next ones the navigation.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Skip to content');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Messages');
    await page.getByRole('link', { name: 'Clients' }).click();
    await page.getByRole('heading', { level: 1, name: 'Clients and their policies', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Deliveries' }).click();
    await page.getByLabel('Status').waitFor();
    await page.getByRole('link', { name: 'Disclosures' }).click();
    await page.getByLabel('Resident id').fill('9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText('No disclosure of this resident').waitFor();
    await page.screenshot({ path: `${process.env.TMPDIR ?? '/tmp'}/ofctx-console-overview.png`, fullPage: true });

    const second = await watchedPage();
    await second.page.goto(link);
    await second.page.getByRole('button', { name: 'Sign in to the console' }).click();
    await second.page.getByRole('heading', { level: 1, name: 'Link used or expired', exact: true }).waitFor();
    expect(await second.page.context().cookies()).to.deep.equal([]);
    // A console error line for the 401 is the browser's own; nothing else.
    expect(problems).to.deep.equal([]);
    expect(second.problems.filter((p) => !p.includes('401'))).to.deep.equal([]);
  });

  it('refuses a forged CSRF token and keeps the session; signs out for good', async () => {
    const { page, problems } = await watchedPage();
    await signIn(page);
    await page.locator('input[name=csrf_token]').first().evaluate((input) => ((input as HTMLInputElement).value = 'forged'));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Form refused', exact: true }).waitFor();
    await page.goto(`${service.baseUrl}/console`);
    await page.getByRole('heading', { level: 1, name: 'Overview', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in', exact: true }).waitFor();
    await page.goto(`${service.baseUrl}/console`);
    await page.getByRole('heading', { level: 1, name: 'Sign in', exact: true }).waitFor();
    expect(problems.filter((p) => !/40[13]/.test(p))).to.deep.equal([]);
  });

  it('shows a partner bearer token nothing', async () => {
    const client = await service.seed.client({ orgId, facilityIds: [facilityId], scopes: ['residents.read', 'webhooks.manage'] });
    const token = await tokenFor(service.baseUrl, client);
    const context = await browser.newContext({ extraHTTPHeaders: { Authorization: `Bearer ${token}` } });
    const page = await context.newPage();
    for (const path of ['/console', '/console/clients', '/console/deliveries']) {
      const answer = await page.goto(`${service.baseUrl}${path}`);
      expect(answer?.status(), path).to.equal(401);
      await page.getByRole('heading', { level: 1, name: 'Sign in', exact: true }).waitFor();
      expect(await page.content()).not.to.include(client.client_id);
    }
    await context.close();
  });
});
