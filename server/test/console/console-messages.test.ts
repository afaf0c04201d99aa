// The message browser over HTTP, every answer checked against the contract: the session's
// organization's messages only (another organization's id is 404, to read or to reprocess),
// the CLI's filters, a message's answer and, asked for, its content; reprocess answers per
// message on the page it came from.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { consoleLinkToken, signInToConsole, type ConsoleBrowser } from '../../../test/support/console.js';
import { startTestService, type TestService } from '../../../test/support/service.js';
import type { MessageOutcome, ReceivedMessage } from '../../src/messages/message-types.js';

describe('the console\'s message browser over HTTP', function () {
  this.timeout(60_000);
  let service: TestService;
  let browser: ConsoleBrowser;
  let orgId: string;
  let facilityId: string;
  const ids = {} as Record<'refused' | 'applied' | 'other', string>;

  async function stored(org: string, facility: string | null, messageType: string, outcome: MessageOutcome, content = '{}'): Promise<string> {
    const store = service.running.app.messages;
    const received: ReceivedMessage = { road: 'fhir', format: 'fhir-bundle', orgId: org, facilityId: facility, source: { client_id: 'ofx_ci_test', peer: null, sending_application: null, sending_facility: null }, messageType, controlId: null, content };
    const row = store.row(received, outcome);
    await store.insert(service.running.app.db, [row]);
    return row.id;
  }

  before(async () => {
    service = await startTestService();
    orgId = (await service.seed.org('Browser Org')).id;
    facilityId = (await service.seed.facility(orgId, 'Browser House')).id;
    const other = (await service.seed.org('Other Org')).id;
    const otherFacility = (await service.seed.facility(other, 'Other House')).id;
    const refused: MessageOutcome = { status: 'refused', answer: { code: '400', errors: [{ severity: 'error', code: 'invalid_fhir', where: 'Bundle.type', text: 'Bundle.type must be transaction or batch' }] }, records: [] };
    ids.refused = await stored(orgId, facilityId, 'Bundle', refused, '{"resourceType":"Bundle","type":"collection","entry":[]}');
    ids.applied = await stored(orgId, facilityId, 'Bundle', { status: 'applied', answer: { code: '200', errors: [] }, records: [] });
    ids.other = await stored(other, otherFacility, 'Bundle', refused);
    browser = await signInToConsole(service.baseUrl, await consoleLinkToken(service.running.app.db, orgId));
  });
  after(() => service?.close());

  it("lists the organization's messages with the reason of a refusal, filtered as the CLI filters", async () => {
    const all = await browser.get('/console/messages');
    expect(all.status).to.equal(200);
    expect(all.body).to.include(`/console/messages/${ids.refused}`).and.include(`/console/messages/${ids.applied}`).and.include('Bundle.type must be transaction or batch');
    expect(all.body).not.to.include(ids.other);
    const refused = await browser.get(`/console/messages?status=refused&facility=${facilityId}&type=Bundle&since=2020-01-01T00:00&resident=`);
    expect(refused.body).to.include(ids.refused).and.not.include(ids.applied);
    expect(refused.body).to.include(`name="message_id" value="${ids.refused}"`);
    expect((await browser.get('/console/messages?since=yesterday')).status).to.equal(400);
    expect((await browser.get('/console/messages?cursor=bm9wZQ')).status).to.equal(400);
    expect((await browser.get('/console/messages?status=lost')).status).to.equal(400);
  });

  it("shows a message's answer, and its content only when asked for", async () => {
    const page = await browser.get(`/console/messages/${ids.refused}`);
    expect(page.status).to.equal(200);
    expect(page.body).to.include('Answer sent: 400').and.include('Reprocess this message').and.include('Show the message');
    expect(page.body).not.to.include('&quot;collection&quot;');
    const shown = await browser.get(`/console/messages/${ids.refused}?content=shown`);
    expect(shown.body).to.include('&quot;collection&quot;');
    expect((await browser.get(`/console/messages/${ids.other}`)).status).to.equal(404);
    expect((await browser.get(`/console/messages/${randomUUID()}`)).status).to.equal(404);
    const audited = await service.running.app.db('audit_events').where({ org_id: orgId }).whereIn('operation', ['messages.show', 'messages.show_raw']).pluck('operation');
    expect(audited).to.include.members(['messages.show', 'messages.show_raw']);
  });

  it('reprocesses a selection and says per message what came of it; refuses another organization\'s id and a forged token', async () => {
    expect((await browser.post('/console/messages/reprocess', { message_id: ids.other })).status).to.equal(404);
    expect((await browser.post('/console/messages/reprocess', { csrf_token: 'forged', message_id: ids.refused })).status).to.equal(403);
    const done = await browser.post('/console/messages/reprocess', { message_id: ids.refused, back: '/console/messages?status=refused' });
    expect(done.status).to.equal(303);
    expect(done.headers.get('location')).to.equal('/console/messages?status=refused');
    const after = await browser.get(done.headers.get('location')!);
    // The same content fails the same way: refused again, and said so.
    expect(after.body).to.match(new RegExp(`Message ${ids.refused}: refused \\(400\\)`));
    const elsewhere = await browser.post('/console/messages/reprocess', { message_id: ids.applied, back: 'https://evil.example/' });
    expect(elsewhere.headers.get('location')).to.equal('/console/messages');
    expect((await browser.get('/console/messages')).body).to.include(`Message ${ids.applied}: already applied, nothing run again`);
  });
});
