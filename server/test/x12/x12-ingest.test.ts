// X12 271 through the ingest endpoint and `ops import`: loops matched by Coverage id, source
// identifier or member id; status, payor and period updated with coverage.updated; AAA and
// unmatched loops listed; a broken interchange refused with nothing written.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestService, ALL_SCOPES, type TestService } from '../../../test/support/service.js';
import { call, tokenFor } from '../../../test/support/http.js';
import { bundle, postBundle } from '../../../test/support/ingest.js';
import { coverage, patient } from '../../../test/support/fhir-resources.js';
import { jsonOf, runOps } from '../../../test/support/ops-cli.js';
import { createClient } from '../../src/auth/clients.js';

const FIXTURE = readFileSync(new URL('./fixtures/eligibility-271.x12', import.meta.url), 'utf8');
const COVERAGE_SYSTEM = 'https://ehr.example/fhir/sid/coverage';

describe('X12 271 ingestion', function () {
  this.timeout(120_000);
  let service: TestService;
  let org: string;
  let f1: string;
  let f2: string;
  let token: string;
  let dir: string;

  before(async () => {
    service = await startTestService();
    org = (await service.seed.org()).id;
    f1 = (await service.seed.facility(org, 'F1')).id;
    f2 = (await service.seed.facility(org, 'F2')).id;
    const source = await createClient(service.running.app.db, { orgId: org, facilityIds: [f1], scopes: ['ingest.write'], name: 'Clearinghouse', kind: 'ingest' });
    token = await tokenFor(service.baseUrl, source);
    dir = mkdtempSync(join(tmpdir(), 'ofctx-x12-'));
  });
  after(async () => {
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const db = () => service.running.app.db;
  const postX12 = (text: string, facility = f1, t = token, type = 'application/edi-x12') =>
    call(service.baseUrl, 'POST', `/api/v1/ingest/${org}/${facility}/x12`, { token: t, headers: { 'content-type': type }, rawBody: text });
  const coverageRow = (key: string) => db()('coverage').whereIn('id', db()('resource_identifiers').where({ system: COVERAGE_SYSTEM, value: key }).select('resource_id')).first();
  const updates = async () => Number((await db()('webhook_events').where({ org_id: org, event_type: 'coverage.updated' }).count({ n: '*' }).first())!.n);

  /** A resident with four Coverages, A to D, as a FHIR feed would have sent them. */
  async function seedCoverages(prefix: string, facility = f1) {
    const url = 'urn:uuid:7d6c3a52-7d1e-4d7a-9a57-55d0b3f1e00' + prefix.length;
    const key = (k: string) => `${prefix}-${k}`;
    const answer = await postBundle(service.baseUrl, await tokenFor(service.baseUrl, await createClient(db(), { orgId: org, facilityIds: [facility], scopes: ['ingest.write'], name: 'EHR', kind: 'ingest' })), org, facility, bundle('transaction', [
      { resource: patient(`${prefix}-MRN`), fullUrl: url },
      { resource: coverage({ reference: url }, key('A'), { period: { start: '2024-01-01' }, payor: [{ display: 'MEDICARE PART A' }] }) },
      { resource: coverage({ reference: url }, key('B'), { payor: [{ display: 'MEDICARE PART A' }] }) },
      { resource: coverage({ reference: url }, key('C')) },
      { resource: coverage({ reference: url }, `SUB-4-${prefix}`, { payor: [{ display: 'MEDICARE PART A' }] }) },
    ]));
    expect(answer.status).to.equal(200);
    const a = await coverageRow(key('A'));
    const c = await coverageRow(key('C'));
    return FIXTURE.replace('{COVERAGE_ID}', a.id).replace('{SOURCE_ID}', key('B')).replace('{REJECTED_ID}', c.id).replace('MI*SUB-4', `MI*SUB-4-${prefix}`);
  }

  it('applies a 271: TRN02 as Coverage id or source identifier, NM109 as source identifier; EB01 6 cancels; AAA and unmatched loops are listed', async () => {
    const text = await seedCoverages('E1');
    const before = await updates();
    const c = await coverageRow('E1-C');
    const answer = await postX12(text);
    expect(answer.status).to.equal(200);
    const summary = answer.body.data;
    expect(summary).to.include({ matched: 3, updated: 2, unchanged: 1, events: 2 });
    expect(summary.rejected).to.deep.equal([{ at: '2000C loop HL*5', trace: c.id, member_id: '3ZZ4TE5MK75', issue: 'AAA 72: Invalid/missing subscriber/insured ID' }]);
    expect(summary.unmatched).to.have.length(1);
    expect(summary.unmatched[0]).to.include({ at: '2000D loop HL*7', trace: 'UNKNOWN-TRACE', member_id: null });
    expect(summary.conflicts).to.deep.equal([]);
    const a = await coverageRow('E1-A');
    expect(a).to.include({ status: 'active', payor_name: 'MEDICARE PART A NORTH', period_start: '2024-01-01', version_id: 2 });
    expect(await coverageRow('E1-B')).to.include({ status: 'cancelled', period_start: '2023-01-01', version_id: 2 });
    expect(await coverageRow('E1-C')).to.include({ status: 'active', version_id: 1 });
    expect(await coverageRow('SUB-4-E1')).to.include({ version_id: 1 });
    expect((await updates()) - before).to.equal(2);
    // The source identifiers survive the update: the same 271 matches again, and changes nothing.
    const again = await postX12(text);
    expect(again.body.data).to.include({ matched: 3, updated: 0, unchanged: 3, events: 0 });
    expect((await updates()) - before).to.equal(2);
  });

  it('cancels a Coverage whose plan ended in the past', async () => {
    await seedCoverages('E2');
    const b = await coverageRow('E2-B');
    const { interchange271 } = await import('../../../test/support/x12.js');
    const answer = await postX12(interchange271([{ trace: b.id, memberId: 'M', eligibility: ['1'], plan: ['20200101', '20201231'] }]));
    expect(answer.body.data).to.include({ matched: 1, updated: 1 });
    expect(await coverageRow('E2-B')).to.include({ status: 'cancelled', period_start: '2020-01-01' });
  });

  it('refuses a broken interchange with invalid_x12 naming the segment, and writes nothing', async () => {
    const text = await seedCoverages('E3');
    const before = await updates();
    const answer = await postX12(text.replace('SE*29*0001', 'SE*27*0001'));
    expect(answer.status).to.equal(400);
    expect(answer.body.error.code).to.equal('invalid_x12');
    expect(answer.body.error.details[0].field).to.equal('body (SE)');
    expect(answer.body.error.message).to.include('SE01 (27)');
    const bad = await postX12(text.replace('DTP*346*D8*20230101', 'DTP*346*D8*20231301'));
    expect(bad.status).to.equal(400);
    expect(bad.body.error.message).to.match(/DTP03: "20231301" is not a date/);
    expect(await updates()).to.equal(before);
    expect(await coverageRow('E3-B')).to.include({ version_id: 1 });
  });

  it('refuses an interchange holding NUL with invalid_x12 naming the segment, and keeps it in the message store (a 500 on PostgreSQL before)', async () => {
    const text = await seedCoverages('E4');
    // ISA06, the sender, is quoted into the stored message's row; NM103 into nothing written.
    const broken = text.replace('*ZZ*MEDICAREPAYER  *', '*ZZ*MEDICARE\u0000PAYER *').replace('NM1*IL*1*', 'NM1*IL*1*\u0000');
    const answer = await postX12(broken);
    expect(answer.status).to.equal(400);
    expect(answer.body.error.code).to.equal('invalid_x12');
    expect(answer.body.error.details[0].field).to.equal('body (segment 1 (ISA, line 1))');
    expect(answer.body.error.message).to.include('NUL character (U+0000)');
    const stored = await db()('inbound_messages').where({ road: 'x12', status: 'refused', answer_code: '400' }).orderBy('seq', 'desc').first();
    expect(stored.sending_application).to.equal('MEDICARE\uFFFDPAYER');
    expect(service.running.app.messages.content(stored)).to.equal(broken);
    expect(await coverageRow('E4-B')).to.include({ version_id: 1 });
  });

  it('answers 415 for another media type and 403 for a facility or a credential without ingest.write', async () => {
    expect((await postX12(FIXTURE, f1, token, 'text/plain')).status).to.equal(415);
    expect((await postX12(FIXTURE, f2)).status).to.equal(403);
    const partner = await tokenFor(service.baseUrl, await service.seed.client({ orgId: org, facilityIds: [f1], scopes: ALL_SCOPES }));
    expect((await postX12(FIXTURE, f1, partner)).status).to.equal(403);
  });

  it('ops import detects X12 by its ISA header and prints the same summary', async () => {
    const text = await seedCoverages('E4', f2);
    const path = join(dir, 'answer.x12');
    writeFileSync(path, text);
    const env = { DATABASE_URL: service.database.url };
    const summary = jsonOf(await runOps(['import', '--org', org, '--facility', f2, path, '--json'], env));
    expect(summary).to.include({ format: 'x12-271', matched: 3, updated: 2, unchanged: 1, events: 2 });
    expect(summary.unmatched).to.have.length(1);
    expect(summary.rejected).to.have.length(1);
    expect(await coverageRow('E4-B')).to.include({ status: 'cancelled' });
    writeFileSync(path, text.replace('GE*1*905', 'GE*3*905'));
    const refused = await runOps(['import', '--org', org, '--facility', f2, path, '--json'], env);
    expect(refused.code).to.not.equal(0);
    expect(refused.stderr).to.include('GE01 (3)');
  });
});
