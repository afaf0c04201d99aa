// The Monday-morning repair, in a real browser (Debian's Chromium): an ADT^A01 from a facility
// code nobody registered arrives over MLLP and is answered AE; the operator signs in to the
// console by a one-time link, finds it refused with its reason, registers the code with
// `ops facility update --hl7-code`, reprocesses it from the console, and sees it applied and
// the resident appear, with one resident.admitted; reprocessing it again applies nothing.
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { startTestService, TEST_WEBHOOK_ENCRYPTION_KEY, type TestService } from '../support/service.js';
import { chromiumAvailable, launchChromium, CHROMIUM_PATH } from '../support/chromium.js';
import { consoleLinkToken } from '../support/console.js';
import { mllpClient } from '../support/mllp.js';
import { adtMessage } from '../support/adt-messages.js';
import { runOps } from '../support/ops-cli.js';

describe('repairing a refused message from the console in Chromium', function () {
  this.timeout(120_000);
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
    service = await startTestService({ env: { MLLP_PORT: '0' } });
    browser = await launchChromium();
    orgId = (await service.seed.org('Maple Care')).id;
    facilityId = (await service.seed.facility(orgId, 'Maple House North')).id;
  });
  after(async () => {
    await browser?.close();
    await service?.close();
  });

  async function signedInPage(): Promise<{ page: Page; problems: string[] }> {
    const page = await (await browser.newContext()).newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('request', (request) => {
      if (!request.url().startsWith(service.baseUrl) && !request.url().startsWith('data:')) problems.push(`request to ${request.url()}`);
    });
    await page.goto(`${service.baseUrl}/console/sign-in?token=${await consoleLinkToken(service.running.app.db, orgId, 'Ana Operator')}`);
    await page.getByRole('button', { name: 'Sign in to the console' }).click();
    await page.waitForURL(`${service.baseUrl}/console`);
    return { page, problems };
  }

  it('finds the refused ADT^A01, reprocesses it after the code is registered, and sees the resident admitted once', async () => {
    const db = service.running.app.db;
    const client = await mllpClient(service.running.mllp!.port);
    const ack = await client.send(adtMessage({ event: 'A01', controlId: 'MON-0001', mrn: 'MRN-QUILL-1', facility: 'MAPLE-N', family: 'Quill', given: 'Harriet' }));
    client.close();
    expect(ack.getSegment('MSA')?.getField(1)?.toString()).to.equal('AE');

    const { page, problems } = await signedInPage();
    // The overview's feed shows the refusal.
    const feeds = page.getByRole('region', { name: 'Feeds' });
    expect(await feeds.getByRole('cell', { name: 'mllp' }).count()).to.equal(1);
    await feeds.getByRole('link', { name: '1' }).click();
    await page.getByRole('heading', { level: 1, name: 'Messages' }).waitFor();
    const row = page.getByRole('row', { name: /ADT\^A01/ });
    expect(await row.count()).to.equal(1);
    expect(await row.textContent()).to.include('refused').and.include('AE').and.include('MAPLE-N');

    // The message's own page: the answer's ERR, and its segments on request.
    await row.getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: 'ADT^A01 MON-0001' }).waitFor();
    await page.getByRole('heading', { name: 'Answer sent: AE' }).waitFor();
    await page.getByRole('link', { name: "Show the message's content" }).click();
    await page.getByRole('rowheader', { name: 'PID' }).waitFor();
    expect(await page.getByRole('row', { name: /^PID/ }).textContent()).to.include('Quill^Harriet');

    const registered = await runOps(['facility', 'update', facilityId, '--hl7-code', 'MAPLE-N', '--json'], { DATABASE_URL: service.database.url, WEBHOOK_ENCRYPTION_KEY: TEST_WEBHOOK_ENCRYPTION_KEY });
    expect(registered.code, registered.stderr).to.equal(0);

    // Back to the list, refused only; select it and reprocess.
    await page.getByRole('link', { name: 'Messages' }).click();
    await page.getByLabel('Status').selectOption('refused');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=refused/);
    await page.getByRole('checkbox', { name: 'Select ADT^A01 MON-0001' }).check();
    await page.getByRole('button', { name: 'Reprocess selected' }).click();
    const status = page.getByRole('status');
    await status.waitFor();
    expect(await status.textContent()).to.match(/: applied \(AA\); resident [0-9a-f-]{36}\./);
    const residentId = /resident ([0-9a-f-]{36})/.exec((await status.textContent())!)![1]!;
    // The refused filter shows it no more; without the filter it is applied, and was refused.
    await page.getByText('No message matches.').waitFor();
    await page.goto(`${service.baseUrl}/console/messages`);
    const applied = page.getByRole('row', { name: /ADT\^A01/ });
    expect(await applied.textContent()).to.include('applied').and.include('was refused');

    const resident = await db('residents').where({ id: residentId }).first('id', 'facility_id', 'family_name');
    expect(resident).to.include({ facility_id: facilityId });
    expect(await db('webhook_events').where({ resident_id: residentId, event_type: 'resident.admitted' }).count({ n: '*' }).first()).to.satisfy((r: { n: number | string }) => Number(r.n) === 1);

    // Reprocessing again from the message's page applies nothing more.
    // (A click that navigates returns once the next page starts loading: what is read of that
    // page is waited for first.)
    await applied.getByRole('link').click();
    await page.getByRole('heading', { name: 'Reprocessed' }).waitFor();
    expect(await page.getByRole('button', { name: 'Reprocess this message' }).count()).to.equal(0);
    const again = await page.request.post(`${service.baseUrl}/console/messages/reprocess`, {
      form: { csrf_token: (await page.locator('input[name=csrf_token]').first().inputValue()), message_id: (page.url().split('/').pop() ?? '').split('?')[0]! },
      maxRedirects: 0,
    });
    expect(again.status()).to.equal(303);
    await page.goto(`${service.baseUrl}/console/messages`);
    expect(await page.getByRole('status').textContent()).to.include('already applied, nothing run again');
    expect(await db('webhook_events').where({ resident_id: residentId, event_type: 'resident.admitted' }).count({ n: '*' }).first()).to.satisfy((r: { n: number | string }) => Number(r.n) === 1);
    await page.goto(`${service.baseUrl}/console/messages?resident=${residentId}`);
    expect(await page.getByRole('row', { name: /ADT\^A01/ }).count()).to.equal(1);
    await page.screenshot({ path: `${process.env.TMPDIR ?? '/tmp'}/ofctx-console-messages.png`, fullPage: true });
    expect(problems).to.deep.equal([]);
    // The content never reached the logs.
    expect(service.logs()).not.to.include('Quill');
  });
});
