// End to end, ofctx asks the payer (issue 40): a resident admitted over HL7 v2 with an IN1 is,
// without any operator action, asked about in one X12 270 over CAQH CORE to a clearinghouse
// test double (test/support/clearinghouse-double.ts, written from the Connectivity Rule); its
// 271 is applied through the 271 road (Coverage.status, coverage.updated to a partner's
// @ofctx/verifier receiver). AAA rejections change nothing, 999s and CORE errors are recorded
// and not retried, a clearinghouse that is down loses no check and gets none twice, and the
// operator's CLI sets the connection, checks on demand and reads the log.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { startWebhookService, TEST_ENCRYPTION_KEY, type Tenant, type WebhookTestService } from '../../server/test/webhooks/support/webhook-service.js';
import { waitFor } from '../../server/test/webhooks/support/receiver.js';
import { setFacilityHl7Code, setFacilityNpi } from '../../server/src/organizations/organizations.js';
import { setConnection } from '../../server/src/eligibility/clearinghouse-connections.js';
import { queueChecks } from '../../server/src/eligibility/check-queue.js';
import { systemResolver } from '../../server/src/webhooks/ssrf-guard.js';
import { startVerifyingReceiver, type VerifyingReceiver } from '../support/verifying-receiver.js';
import { hl7Message, MRN_OID, MRN_SYSTEM, segment } from '../support/adt-messages.js';
import { mllpClient, msa } from '../support/mllp.js';
import { jsonOf, runOps } from '../support/ops-cli.js';
import { startClearinghouseDouble, type ClearinghouseDouble, type DoubleAnswer } from '../support/clearinghouse-double.js';

const NPI = '1234567893';
const FAST_ELIGIBILITY_ENV = {
  MLLP_PORT: '0',
  ELIGIBILITY_POLL_INTERVAL_MS: '50',
  ELIGIBILITY_TIMEOUT_MS: '1500',
  ELIGIBILITY_LEASE_MS: '3000',
  ELIGIBILITY_RETRY_BASE_MS: '200',
  ELIGIBILITY_RETRY_MAX_MS: '800',
  ELIGIBILITY_BREAKER_FAILURES: '3',
  ELIGIBILITY_BREAKER_PAUSE_MS: '300',
};

describe('real-time eligibility: ofctx asks the payer', function () {
  this.timeout(90_000);
  let service: WebhookTestService;
  let tenant: Tenant;
  let receiver: VerifyingReceiver;
  let double: ClearinghouseDouble;
  let db: Knex;
  /** What the double answers, by member id; `active` otherwise. */
  const answers = new Map<string, DoubleAnswer>();
  let control = 0;

  before(async () => {
    service = await startWebhookService({ env: FAST_ELIGIBILITY_ENV });
    db = service.running.app.db;
    tenant = await service.tenant();
    await setFacilityHl7Code(db, tenant.facilityId, 'ELIG-HOME');
    await setFacilityNpi(db, tenant.facilityId, NPI);
    double = await startClearinghouseDouble({ username: 'ofctx-user', password: 'core-secret', answer: (inquiry) => answers.get(inquiry.inquiry.memberId) ?? { kind: 'active' } });
    await setConnection(db, service.running.app.webhooks.cipher, { allowPrivateTargets: true, resolve: systemResolver }, { orgId: tenant.orgId, url: double.url, protocol: 'soap', username: 'ofctx-user', password: 'core-secret', senderId: 'OFCTXSENDER', receiverId: 'CLEARINGHOUSE', payers: null, concurrency: 4, usage: 'P' });
    receiver = await startVerifyingReceiver();
    receiver.secret = (await service.subscribe(tenant, receiver.url, ['coverage.updated'])).signing_secret;
  });
  after(async () => {
    receiver?.close();
    await service?.close();
    await double?.close();
  });

  /** Admits a resident over MLLP with one IN1 (Medicare, payer id CMS); `in1` adds IN1 fields. */
  async function admit(mrn: string, memberId: string, family = 'Nakamura', in1: Record<number, string> = {}): Promise<{ residentId: string; coverageId: string }> {
    const client = await mllpClient(service.running.mllp!.port);
    const message = hl7Message('ADT^A01^ADT_A01', `ELIG-${++control}`, [
      'EVN|A01|20260115083000',
      `PID|1||${mrn}^^^MAPLEMRN&${MRN_OID}&ISO^MR||${family}^Hiro^Kenji^^^^L||19410317|M`,
      'PV1|1|I|2W^201^A^ELIG-HOME',
      segment('IN1', { 1: '1', 2: 'MEDICARE-A', 3: 'CMS', 4: 'Medicare Part A', 12: '20250101', 36: memberId, ...in1 }),
    ], { facility: 'ELIG-HOME' });
    const ack = msa(await client.send(message));
    client.close();
    expect(ack.code, ack.err).to.equal('AA');
    const residentId = (await db('resource_identifiers').where({ org_id: tenant.orgId, resource_type: 'Patient', system: MRN_SYSTEM, value: mrn }).first('resource_id')).resource_id as string;
    const coverageId = (await db('coverage').where({ resident_id: residentId }).first('id')).id as string;
    return { residentId, coverageId };
  }

  const exchangesOf = (coverageId: string) => db('eligibility_exchanges').where({ coverage_id: coverageId }).orderBy('seq');
  const receivedFor = (memberId: string) => double.received.filter((r) => r.inquiry.memberId === memberId);
  const coverageEvents = async (residentId: string) => Number((await db('webhook_events').where({ resident_id: residentId, event_type: 'coverage.updated' }).count({ n: '*' }).first())!.n);

  it('an ADT^A01 with IN1 leads to one valid 270 and, on an inactive 271, to a cancelled Coverage and one coverage.updated at the receiver', async () => {
    answers.set('1EG4TE5MK73', { kind: 'inactive' });
    const { residentId, coverageId } = await admit('ELIG-1', '1EG4TE5MK73');
    const [asked] = await waitFor('the 270 at the clearinghouse', () => (receivedFor('1EG4TE5MK73').length ? receivedFor('1EG4TE5MK73') : undefined));
    expect(asked!.problems).to.deep.equal([]);
    expect(asked!.protocol).to.equal('soap');
    expect(asked!.username).to.equal('ofctx-user');
    expect(asked!.envelope).to.include({ payloadType: 'X12_270_Request_005010X279A1', processingMode: 'RealTime', coreRuleVersion: '2.2.0', senderId: 'OFCTXSENDER', receiverId: 'CLEARINGHOUSE' });
    expect(asked!.inquiry).to.include({ payerId: 'CMS', npi: NPI, memberId: '1EG4TE5MK73', trace: coverageId, lastName: 'NAKAMURA', firstName: 'HIRO', birthDate: '1941-03-17' });
    expect(asked!.inquiry.serviceTypes).to.deep.equal(['30']);

    const exchange = await waitFor('the exchange on record', async () => (await exchangesOf(coverageId))[0]);
    expect(exchange).to.include({ outcome: 'inactive', trigger: 'admission', coverage_status: 'cancelled' });
    expect(Boolean(exchange.retrying)).to.equal(false);
    expect(exchange.request_x12).to.match(/^ISA\*/);
    expect(exchange.response_x12).to.include('ST*271*');
    const row = await db('coverage').where({ id: coverageId }).first('status', 'version_id');
    expect(row).to.deep.include({ status: 'cancelled' });
    expect(Number(row.version_id)).to.equal(2);
    // One coverage.updated when the Coverage was created, one when the 271 cancelled it.
    await waitFor('the cancellation at the receiver', () => (receiver.accepted.filter((d) => d.event_type === 'coverage.updated' && d.data.resident_id === residentId).length === 2 ? true : undefined));
    expect(await coverageEvents(residentId)).to.equal(2);
    expect(receiver.refused).to.deep.equal([]);
    // The 271's benefits are kept for partners, as for any 271.
    expect(await db('eligibility_responses').where({ coverage_id: coverageId }).count({ n: '*' }).first().then((r) => Number(r!.n))).to.equal(1);
    // Asked once: nothing more goes out while the Coverage does not change.
    await new Promise((r) => setTimeout(r, 500));
    expect(receivedFor('1EG4TE5MK73')).to.have.length(1);
    const check = await db('eligibility_checks').where({ coverage_id: coverageId }).first();
    expect(check).to.include({ last_outcome: 'inactive', due_at: null, lease_owner: null });
  });

  it('a resident who is a dependent is asked about in loop 2000D, under the subscriber the IN1 names, with the group number', async () => {
    const { coverageId } = await admit('ELIG-10', 'FAMILY-PLAN-10', 'Okafor', { 8: 'GRP-77', 16: 'Okafor^Chidi^E', 17: 'CHD', 18: '19380214' });
    const [asked] = await waitFor('the 270 at the clearinghouse', () => (receivedFor('FAMILY-PLAN-10').length ? receivedFor('FAMILY-PLAN-10') : undefined));
    expect(asked!.problems).to.deep.equal([]);
    expect(asked!.inquiry).to.include({ memberId: 'FAMILY-PLAN-10', lastName: 'OKAFOR', firstName: 'CHIDI', birthDate: '1938-02-14', groupNumber: 'GRP-77', trace: coverageId });
    expect(asked!.inquiry.dependent).to.include({ lastName: 'OKAFOR', firstName: 'HIRO', birthDate: '1941-03-17' });
    expect(asked!.x12).to.match(/~HL\*4\*3\*23\*0~/);
    expect(asked!.x12).to.include('~INS*N*19~');
    const exchange = await waitFor('the exchange on record', async () => (await exchangesOf(coverageId))[0]);
    expect(exchange.outcome).to.equal('active');
  });

  it('an active 271 keeps the Coverage active, the same answer again changes nothing and emits nothing, and the next ask is scheduled within the recheck period', async () => {
    const { residentId, coverageId } = await admit('ELIG-2', 'ACTIVE-MEMBER-2');
    const exchange = await waitFor('the exchange on record', async () => (await exchangesOf(coverageId))[0]);
    expect(exchange).to.include({ outcome: 'active', coverage_status: 'active' });
    // The first answer may rename the payer as the payer names itself (NM1*PR): one event at most.
    const events = await coverageEvents(residentId);
    expect(events).to.be.within(1, 2);
    const check = await db('eligibility_checks').where({ coverage_id: coverageId }).first();
    const due = Date.parse(check.due_at);
    expect(due).to.be.greaterThan(Date.now() + 15 * 86_400_000 - 60_000);
    expect(due).to.be.lessThan(Date.now() + 45 * 86_400_000 + 60_000);
    const version = Number((await db('coverage').where({ id: coverageId }).first('version_id')).version_id);
    await db.transaction((trx) => queueChecks(trx, [{ coverageId, orgId: tenant.orgId, facilityId: tenant.facilityId, trigger: 'operator' }], new Date().toISOString()));
    await waitFor('the second exchange', async () => ((await exchangesOf(coverageId)).length === 2 ? true : undefined));
    expect(Number((await db('coverage').where({ id: coverageId }).first('version_id')).version_id)).to.equal(version);
    expect(await coverageEvents(residentId)).to.equal(events);
    expect(receivedFor('ACTIVE-MEMBER-2')).to.have.length(2);
  });

  it('a 271 that names a new payer (loop 2120) moves the Coverage to it, and that payer is asked in turn, once', async () => {
    answers.set('MOVED-MEMBER', { kind: 'active', otherPayer: { name: 'Acme Medicare Advantage', id: 'ACME-MA' } });
    const { coverageId } = await admit('ELIG-11', 'MOVED-MEMBER');
    const asked = await waitFor('the 270 to the new payer', () => (receivedFor('MOVED-MEMBER').length === 2 ? receivedFor('MOVED-MEMBER') : undefined));
    expect(asked.map((r) => r.inquiry.payerId)).to.deep.equal(['CMS', 'ACME-MA']);
    const exchanges = await waitFor('both exchanges on record', async () => ((await exchangesOf(coverageId)).length === 2 ? exchangesOf(coverageId) : undefined));
    expect(exchanges.map((e) => e.trigger)).to.deep.equal(['admission', 'change']);
    expect((await db('coverage').where({ id: coverageId }).first('payor_id')).payor_id).to.equal('ACME-MA');
    // The new payer names itself: no third ask.
    await new Promise((r) => setTimeout(r, 500));
    expect(receivedFor('MOVED-MEMBER')).to.have.length(2);
  });

  it('an AAA rejection changes nothing about the Coverage and is logged with its codes', async () => {
    answers.set('WRONG-MEMBER', { kind: 'aaa', code: '72', action: 'C' });
    const { residentId, coverageId } = await admit('ELIG-3', 'WRONG-MEMBER');
    const exchange = await waitFor('the exchange on record', async () => (await exchangesOf(coverageId))[0]);
    expect(exchange.outcome).to.equal('rejected');
    expect(JSON.parse(exchange.codes).aaa).to.deep.equal([{ code: '72', action: 'C', reason: 'AAA 72: Invalid/missing subscriber/insured ID' }]);
    const row = await db('coverage').where({ id: coverageId }).first('status', 'version_id');
    expect(row.status).to.equal('active');
    expect(Number(row.version_id)).to.equal(1);
    expect(await coverageEvents(residentId)).to.equal(1);
    expect(receivedFor('WRONG-MEMBER')).to.have.length(1);
  });

  it('a 999 and a CORE envelope error are recorded with their codes and not retried', async () => {
    answers.set('REFUSED-999', { kind: '999' });
    answers.set('CORE-ERROR', { kind: 'core-error', code: 'PayloadIDRequired', message: 'no payload id' });
    const refused = await admit('ELIG-4', 'REFUSED-999');
    const coreError = await admit('ELIG-5', 'CORE-ERROR');
    const ack = await waitFor('the 999 on record', async () => (await exchangesOf(refused.coverageId))[0]);
    expect(ack).to.include({ outcome: 'error' });
    expect(Boolean(ack.retrying)).to.equal(false);
    expect(JSON.parse(ack.codes).ack.code).to.equal('R');
    const core = await waitFor('the CORE error on record', async () => (await exchangesOf(coreError.coverageId))[0]);
    expect(core).to.include({ outcome: 'error' });
    expect(JSON.parse(core.codes).core.code).to.equal('PayloadIDRequired');
    await new Promise((r) => setTimeout(r, 600));
    expect(receivedFor('REFUSED-999')).to.have.length(1);
    expect(receivedFor('CORE-ERROR')).to.have.length(1);
    expect(await exchangesOf(refused.coverageId)).to.have.length(1);
  });

  it('a clearinghouse that is down loses no check, pauses the connection, and gets each check once when it returns', async () => {
    await double.down();
    const admitted = [await admit('ELIG-6', 'DOWN-MEMBER-6'), await admit('ELIG-7', 'DOWN-MEMBER-7')];
    // Failed attempts are on record and retried with backoff; the breaker pauses the connection.
    await waitFor('failed attempts on record', async () => ((await exchangesOf(admitted[0]!.coverageId)).length >= 2 ? true : undefined), 15_000);
    const failed = await exchangesOf(admitted[0]!.coverageId);
    expect(failed.every((e) => e.outcome === 'error' && Boolean(e.retrying))).to.equal(true);
    expect(JSON.parse(failed[0].codes).error_class).to.equal('connection_refused');
    const connection = await waitFor('the connection paused', async () => (await db('clearinghouse_connections').where({ org_id: tenant.orgId }).first()).paused_until ?? undefined);
    expect(connection).to.be.a('string');
    await new Promise((r) => setTimeout(r, 1500));
    await double.up();
    for (const { coverageId } of admitted) {
      const answered = await waitFor('the answer after the clearinghouse returned', async () => (await exchangesOf(coverageId)).find((e) => e.outcome === 'active'), 15_000);
      expect(answered.trigger).to.equal('admission');
    }
    expect(receivedFor('DOWN-MEMBER-6')).to.have.length(1);
    expect(receivedFor('DOWN-MEMBER-7')).to.have.length(1);
    expect((await db('clearinghouse_connections').where({ org_id: tenant.orgId }).first()).failures).to.satisfy((n: unknown) => Number(n) === 0);
  });

  it('a new policy from the feed is asked about; the same IN1 re-sent is not', async () => {
    const first = await admit('ELIG-8', 'MEMBER-8A');
    await waitFor('the first exchange', async () => (await exchangesOf(first.coverageId))[0]);
    // The same message again (a new control id): nothing changes, nothing is asked.
    await admit('ELIG-8', 'MEMBER-8A');
    await new Promise((r) => setTimeout(r, 500));
    expect(receivedFor('MEMBER-8A')).to.have.length(1);
    // A new policy number is a new Coverage (IN1's identifier is the plan and policy): asked about once.
    await admit('ELIG-8', 'MEMBER-8B');
    await waitFor('the 270 for the new member id', () => (receivedFor('MEMBER-8B').length ? true : undefined));
    await new Promise((r) => setTimeout(r, 300));
    expect(receivedFor('MEMBER-8B')).to.have.length(1);
  });

  it('the metrics count the checks by outcome, time the exchanges and show the queue; no PHI in them or in the logs', async () => {
    const text = await service.running.app.metrics.exposition();
    const count = (outcome: string) => Number(new RegExp(`^ofctx_eligibility_checks_total\\{outcome="${outcome}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
    expect(count('inactive')).to.be.at.least(1);
    expect(count('rejected')).to.be.at.least(1);
    expect(count('active')).to.be.at.least(3);
    expect(count('error')).to.be.at.least(3);
    expect(text).to.match(/^ofctx_eligibility_exchange_duration_seconds_count\{outcome="active"\} [1-9]/m);
    expect(text).to.match(/^ofctx_eligibility_checks_queued 0$/m);
    expect(text).to.match(/^ofctx_eligibility_oldest_queued_check_age_seconds 0$/m);
    for (const secret of ['1EG4TE5MK73', 'NAKAMURA', 'Nakamura', 'core-secret', 'ST*270']) {
      expect(text).not.to.include(secret);
      expect(service.logs()).not.to.include(secret);
    }
  });

  it('the operator: ops facility update --npi refuses a bad NPI, clearinghouse set/list never print the password, eligibility check and log', async () => {
    const env = { DATABASE_URL: service.database.url, WEBHOOK_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, WEBHOOK_ALLOW_PRIVATE_TARGETS: '1', ELIGIBILITY_TIMEOUT_MS: '3000' };
    const bad = await runOps(['facility', 'update', tenant.facilityId, '--npi', '1234567890', '--json'], env);
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.include('check digit');
    expect(jsonOf(await runOps(['facility', 'update', tenant.facilityId, '--npi', NPI, '--json'], env))).to.include({ id: tenant.facilityId, npi: NPI, hl7_code: 'ELIG-HOME' });

    const set = jsonOf(await runOps(['clearinghouse', 'set', '--org', tenant.orgId, '--url', double.url, '--protocol', 'mime', '--username', 'ofctx-user', '--password', 'core-secret', '--sender-id', 'OFCTXSENDER', '--receiver-id', 'CLEARINGHOUSE', '--json'], env));
    expect(set).to.include({ created: false, protocol: 'mime' });
    const listed = await runOps(['clearinghouse', 'list', '--org', tenant.orgId, '--json'], env);
    expect(listed.stdout).not.to.include('core-secret');
    expect(jsonOf(listed).connections).to.have.length(1);
    const refusedUrl = await runOps(['clearinghouse', 'set', '--org', tenant.orgId, '--url', 'ftp://example.com', '--protocol', 'soap', '--username', 'u', '--password', 'p', '--sender-id', 'S', '--receiver-id', 'R', '--json'], { ...env, WEBHOOK_ALLOW_PRIVATE_TARGETS: '0' });
    expect(refusedUrl.code).to.equal(2);

    const { coverageId } = await admit('ELIG-9', 'CLI-MEMBER-9');
    await waitFor('the admission exchange', async () => (await exchangesOf(coverageId))[0]);
    const before = receivedFor('CLI-MEMBER-9').length;
    const checked = jsonOf(await runOps(['eligibility', 'check', '--org', tenant.orgId, '--facility', tenant.facilityId, '--coverage', coverageId, '--json'], env));
    expect(checked.checks).to.deep.equal([{ coverage_id: coverageId, outcome: 'active', status: 'active', detail: checked.checks[0].detail }]);
    expect(receivedFor('CLI-MEMBER-9')).to.have.length(before + 1);
    expect(receivedFor('CLI-MEMBER-9').at(-1)!.protocol).to.equal('mime');

    const log = jsonOf(await runOps(['eligibility', 'log', '--org', tenant.orgId, '--coverage', coverageId, '--json'], env));
    expect(log.exchanges.map((e: { trigger: string }) => e.trigger)).to.deep.equal(['operator', 'admission']);
    expect(log.exchanges[0]).not.to.have.property('request_x12');
    const raw = jsonOf(await runOps(['eligibility', 'log', '--org', tenant.orgId, '--coverage', coverageId, '--raw', '--limit', '1', '--json'], env));
    expect(raw.exchanges[0].request_x12).to.include('ST*270*');
    expect(raw.exchanges[0].request_x12).to.include('CLI-MEMBER-9');

    // A facility without an NPI is not checked, and says so.
    const other = jsonOf(await runOps(['eligibility', 'check', '--org', tenant.orgId, '--facility', tenant.otherFacilityId, '--all', '--json'], env));
    expect(other.checks).to.deep.equal([]);
    expect(service.logs()).not.to.include('CLI-MEMBER-9');
  });
});
