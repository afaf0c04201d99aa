// Bad input on the feeds never breaks the service and never half-writes: generated malformed
// HL7 v2 ADT messages over MLLP (broken framing, no MSH, wrong encoding characters, unknown
// events and types, bad dates and codes, missing segments and fields, garbage, NUL, oversize
// frames, abrupt disconnects) and malformed X12 271 interchanges at the ingest endpoint (bad
// envelopes, wrong SE/GE/IEA counts and control numbers, unknown qualifiers, bad dates,
// truncation, garbage). Every message gets its answer (an ACK that is not AA, or 400
// invalid_x12 valid against the contract; an AA with an ERR of severity W where only a field
// that is not a key one is malformed, issue 41); nothing of a refused message is written; good
// messages mixed in are applied; the listener serves on after all of it.
//   FEEDS_FUZZ_SEED=7 FEEDS_FUZZ_HL7=800 FEEDS_FUZZ_X12=400 npm run test:reliability
import { expect } from 'chai';
import fc from 'fast-check';
import { createClient } from '../../server/src/auth/clients.js';
import { applyChangeSet } from '../../server/src/ingest/apply-change-set.js';
import { createFacility, createOrganization, setFacilityHl7Code } from '../../server/src/organizations/organizations.js';
import { figures } from './support/figures.js';
import { bearer, checkedSend, issueToken, suiteService } from './support/suite.js';
import { rememberSecret } from './support/secrets.js';
import type { TestService } from '../support/service.js';
import { coverage, patient } from '../support/fhir-resources.js';
import { adtMessage, MRN_SYSTEM } from '../support/adt-messages.js';
import { frame, mllpClient, msa, type MllpTestClient } from '../support/mllp.js';
import { interchange271 } from '../support/x12.js';

const SEED = Number(process.env.FEEDS_FUZZ_SEED ?? 20261124);
const HL7_MESSAGES = Number(process.env.FEEDS_FUZZ_HL7 ?? 700);
const X12_BODIES = Number(process.env.FEEDS_FUZZ_X12 ?? 400);
const OVERSIZE = 70_000;

type Expect = 'AA' | 'AE' | 'AR' | 'not-AA' | 'AA with a warning' | 'AA, written';
/** A valid message broken in one way, the answer it must get, and (with a warning) the field its ERR W names. */
const HL7_BREAKERS: Array<[string, (m: string) => string, Expect, string?]> = [
  ['no MSH', (m) => m.slice(m.indexOf('\r') + 1), 'AR'],
  ['wrong encoding characters', (m) => m.replace('MSH|^~\\&|', 'MSH|^^\\&|'), 'AR'],
  ['MSH-2 too short', (m) => m.replace('MSH|^~\\&|', 'MSH|^~|'), 'AR'],
  ['letters as separators', (m) => m.replace('MSH|^~\\&|', 'MSHA^~\\&A'), 'AR'],
  ['unknown event', (m) => m.replace(/ADT\^A0\d/, 'ADT^A77'), 'AR'],
  ['a message type not taken', (m) => m.replace(/ADT\^A0\d\^ADT_A0\d/, 'SIU^S12^SIU_S12'), 'AR'],
  ['no control id', (m) => m.replace(/\|(CTL-[^|]+)\|P\|/, '||P|'), 'AR'],
  // A resident may have no birth date (issue 41: a reference lab writes PID-7 `DOB`): a
  // malformed one is left out with a warning, an empty one is simply absent.
  ['impossible birth date', (m) => m.replace('|19410317|', '|19410230|'), 'AA with a warning', 'PID^1^7'],
  ['birth date with letters', (m) => m.replace('|19410317|', '|1941O317|'), 'AA with a warning', 'PID^1^7'],
  ['partial birth date', (m) => m.replace('|19410317|', '|194103|'), 'AA with a warning', 'PID^1^7'],
  ['no birth date', (m) => m.replace('|19410317|', '||'), 'AA, written'],
  // A malformed field that is not a key one is left out with an ERR of severity W, the rest
  // applied (issue 41, "senders as they are"): an admission with it is written.
  ['unknown sex', (m) => m.replace('|19410317|F', '|19410317|Z'), 'AA with a warning', 'PID^1^8'],
  ['no PID', (m) => m.split('\r').filter((s) => !s.startsWith('PID')).join('\r'), 'AE'],
  // (An A08 needs no PV1: its facility may come from MSH-4.)
  ['no PV1', (m) => m.replace('ADT^A08^', 'ADT^A01^').split('\r').filter((s) => !s.startsWith('PV1')).join('\r'), 'AE'],
  ['no identifier', (m) => m.replace(/PID\|1\|\|[^|]*\|/, 'PID|1|||'), 'AE'],
  ['identifier over 300 characters', (m) => m.replace(/PID\|1\|\|([^^|]*)/, `PID|1||${'7'.repeat(301)}`), 'AE'],
  ['no family name', (m) => m.replace('|Okafor^', '|^'), 'AE'],
  ['unknown facility code', (m) => m.replace(/REL-HOME/g, 'REL-NOWHERE'), 'AE'],
  ['NUL in the family name', (m) => m.replace('Okafor', 'Oka\u0000for'), 'AE'],
  ['family name over 200 characters', (m) => m.replace('Okafor', 'O'.repeat(250)), 'AE'],
  ['truncated in PID', (m) => m.slice(0, m.indexOf('PID|') + 12), 'not-AA'],
  ['garbage', () => 'this is not HL7 at all \u00ff\u0001', 'AR'],
  ['empty frame', () => '', 'AR'],
];

describe('feeds reliability: generated malformed HL7 v2 over MLLP and X12 271', function () {
  this.timeout(900_000);
  let service: TestService;
  let org: string;
  let facility: string;
  let token: string;
  let coverageId: string;
  let counter = 0;

  before(async () => {
    service = await suiteService();
    const db = service.running.app.db;
    org = (await createOrganization(db, 'Feeds reliability')).id;
    facility = (await createFacility(db, org, 'Home')).id;
    await setFacilityHl7Code(db, facility, 'REL-HOME');
    const source = await createClient(db, { orgId: org, facilityIds: [facility], scopes: ['ingest.write'], name: 'feeds', kind: 'ingest' });
    rememberSecret('client_secret', source.client_secret);
    token = await issueToken(service, source);
    const url = 'urn:uuid:9b7d2c10-1b2e-4c5f-8a9b-0c1d2e3f4a5b';
    const seeded = await applyChangeSet(db, { orgId: org, facilityId: facility, mode: 'transaction', actor: 'seed', emitEvents: false, changes: [
      { resource: patient('REL-X12'), fullUrl: url, match: { identifier: { system: 'https://ehr.example/fhir/sid/mrn', value: 'REL-X12' } }, at: 'p' },
      { resource: coverage({ reference: url }, 'REL-COV'), at: 'c' },
    ] });
    coverageId = (seeded.outcomes[1] as { id: string }).id;
  });

  /** The message store's rows of a road (not the reprocess outcomes), by status. */
  const storedByStatus = async (road: string) =>
    Object.fromEntries(((await service.running.app.db('inbound_messages').where({ road }).whereNull('reprocess_of').groupBy('status').select('status').count({ n: '*' })) as Array<{ status: string; n: number | string }>).map((r) => [r.status, Number(r.n)]));
  const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

  const residentExists = async (mrn: string) => (await service.running.app.db('resource_identifiers').where({ org_id: org, resource_type: 'Patient', system: MRN_SYSTEM, value: mrn }).first()) !== undefined;

  it(`${HL7_MESSAGES} malformed ADT messages over MLLP: each answered as it must be, none written, the good ones around them applied`, async () => {
    const port = service.running.mllp!.port;
    const sampleArb = fc.record({ breaker: fc.nat(HL7_BREAKERS.length - 1), event: fc.constantFrom('A01', 'A02', 'A03', 'A04', 'A08'), framing: fc.nat(19), goodAfter: fc.boolean() });
    const samples = fc.sample(sampleArb, { seed: SEED, numRuns: HL7_MESSAGES });
    let client: MllpTestClient = await mllpClient(port);
    // Every frame answered is stored with its outcome (issue 42): refused for each AE/AR, 0 lost.
    const storedBefore = await storedByStatus('mllp');
    const answered = { all: 0, refused: 0 };
    const batch: Array<{ bytes: Buffer; expect: Expect; controlId: string; mrn: string; good: boolean; why: string; warns?: string }> = [];
    const flush = async () => {
      if (batch.length === 0) return;
      client.write(Buffer.concat(batch.map((b) => b.bytes)));
      let acks;
      try {
        acks = (await client.acks(batch.length, 60_000)).map(msa);
      } catch (error) {
        figures.feeds.unanswered += batch.length;
        throw error;
      }
      for (const [i, sent] of batch.entries()) {
        const ack = acks[i]!;
        answered.all++;
        if (ack.code !== 'AA') answered.refused++;
        const context = `${sent.why}: ${JSON.stringify(ack)}`;
        if (sent.expect === 'not-AA') expect(ack.code, context).to.be.oneOf(['AE', 'AR']);
        else if (sent.expect === 'AA with a warning') {
          expect(ack.code, context).to.equal('AA');
          expect(ack.err, context).to.match(new RegExp(`^ERR\\|\\|${sent.warns!.replace(/\^/g, '\\^')}\\^1\\|[^|]*\\|W\\|`));
        } else if (sent.expect === 'AA, written') expect(ack.code, context).to.equal('AA');
        else expect(ack.code, context).to.equal(sent.expect);
        if (sent.controlId && sent.why !== 'no control id' && !['no MSH', 'garbage', 'empty frame', 'letters as separators'].includes(sent.why)) expect(ack.controlId, context).to.equal(sent.controlId);
        if (ack.code !== 'AA') expect(ack.err, context).to.match(/^ERR\|/);
        const written = await residentExists(sent.mrn);
        if (written !== sent.good) figures.feeds.partialWrites++;
        expect(written, context).to.equal(sent.good);
      }
      batch.length = 0;
    };
    for (const sample of samples) {
      const n = ++counter;
      const [why, breaker, expected, warns] = HL7_BREAKERS[sample.breaker]!;
      const mrn = `REL-${SEED}-${n}`;
      const controlId = `CTL-${SEED}-${n}`;
      // A message applied (with a warning or without) is an admission: its resident is written.
      const applied = expected === 'AA with a warning' || expected === 'AA, written';
      const base = adtMessage({ event: applied ? 'A01' : sample.event, controlId, mrn, facility: 'REL-HOME' });
      figures.feeds.hl7++;
      if (sample.framing === 0) {
        // Broken framing: the frame does not start with VT.
        batch.push({ bytes: Buffer.concat([Buffer.from(base), Buffer.from([0x1c, 0x0d])]), expect: 'AR', controlId, mrn, good: false, why: 'no VT' });
      } else if (sample.framing === 1) {
        batch.push({ bytes: frame(base.replace('Okafor', 'X'.repeat(OVERSIZE))), expect: 'AR', controlId, mrn, good: false, why: 'oversize' });
      } else if (sample.framing === 2) {
        // An abrupt disconnect mid-frame: nothing to answer, nothing written; a new connection follows.
        await flush();
        client.write(frame(base).subarray(0, 40 + (n % 50)));
        client.socket.resetAndDestroy();
        figures.feeds.disconnects++;
        figures.feeds.hl7--;
        client = await mllpClient(port);
        expect(await residentExists(mrn)).to.equal(false);
        continue;
      } else {
        batch.push({ bytes: frame(breaker(base)), expect: expected, controlId, mrn, good: applied, why, warns });
      }
      if (sample.goodAfter) {
        const goodMrn = `${mrn}-ok`;
        batch.push({ bytes: frame(adtMessage({ event: 'A01', controlId: `${controlId}-ok`, mrn: goodMrn, facility: 'REL-HOME' })), expect: 'AA', controlId: `${controlId}-ok`, mrn: goodMrn, good: true, why: 'good' });
      }
      if (batch.length >= 16) await flush();
    }
    await flush();
    client.close();
    expect(figures.feeds.hl7 + figures.feeds.disconnects).to.equal(HL7_MESSAGES);
    // The listener serves on.
    const last = await mllpClient(port);
    expect(msa(await last.send(adtMessage({ event: 'A01', controlId: `CTL-${SEED}-last`, mrn: `REL-${SEED}-last`, facility: 'REL-HOME' }))).code).to.equal('AA');
    last.close();
    answered.all++;
    const storedAfter = await storedByStatus('mllp');
    const lost = answered.all - (total(storedAfter) - total(storedBefore));
    figures.feeds.lost = (figures.feeds.lost ?? 0) + lost;
    expect(lost, 'frames answered but not in the message store').to.equal(0);
    expect((storedAfter.refused ?? 0) - (storedBefore.refused ?? 0), 'AE/AR answers stored as refused').to.equal(answered.refused);
  });

  it(`${X12_BODIES} malformed 271 interchanges: each refused with invalid_x12 naming where, the Coverage untouched`, async () => {
    const db = service.running.app.db;
    const good = () => interchange271([{ trace: coverageId, memberId: 'REL-MEMBER', eligibility: ['6'], plan: ['20240101', '20291231'], payer: 'REL PAYER' }]);
    const X12_BREAKERS: Array<[string, (t: string) => string]> = [
      ['SE01 off by one', (t) => t.replace(/SE\*(\d+)\*/, (_m, n) => `SE*${Number(n) + 1}*`)],
      ['SE01 too small', (t) => t.replace(/SE\*(\d+)\*/, (_m, n) => `SE*${Number(n) - 2}*`)],
      ['GE01 wrong', (t) => t.replace('GE*1*', 'GE*2*')],
      ['IEA01 wrong', (t) => t.replace('IEA*1*', 'IEA*0*')],
      ['SE02 not ST02', (t) => t.replace(/SE\*(\d+)\*0001/, 'SE*$1*0009')],
      ['GE02 not GS06', (t) => t.replace(/GE\*1\*(\d+)/, 'GE*1*1$1')],
      ['IEA02 not ISA13', (t) => t.replace(/IEA\*1\*(\d+)/, 'IEA*1*999999999')],
      ['no IEA', (t) => t.slice(0, t.indexOf('IEA*'))],
      ['no GE and IEA', (t) => t.slice(0, t.indexOf('GE*'))],
      ['no ISA', (t) => t.slice(t.indexOf('GS*'))],
      ['ISA cut short', (t) => t.slice(0, 60)],
      ['not a 271', (t) => t.replace('ST*271', 'ST*270')],
      ['GS01 not HB', (t) => t.replace('GS*HB', 'GS*HS')],
      ['impossible plan date', (t) => t.replace('20291231', '20290231')],
      ['plan range without end', (t) => t.replace('-20291231', '')],
      ['DTP02 unknown', (t) => t.replace('DTP*291*RD8', 'DTP*291*RD9')],
      ['DTP01 not a qualifier', (t) => t.replace('DTP*291', 'DTP*ABC')],
      ['HL03 unknown', (t) => t.replace('*22*0', '*29*0')],
      ['EB01 unknown', (t) => t.replace('EB*6*', 'EB*QQ*')],
      ['EB03 not service types', (t) => t.replace('*30^1', '*30^!!!')],
      ['NM108 unknown', (t) => t.replace('****MI*REL-MEMBER', '****Q1*REL-MEMBER')],
      ['subscriber named as payer', (t) => t.replace('NM1*IL*', 'NM1*PR*')],
      ['TRN01 unknown', (t) => t.replace('TRN*2*', 'TRN*9*')],
      ['TRN02 empty', (t) => t.replace(/TRN\*2\*[^*]+\*/, 'TRN*2**')],
      ['AAA01 not Y or N', (t) => t.replace('EB*6*', 'AAA*X**72*C~\nEB*6*')],
      ['AAA03 not a code', (t) => t.replace('EB*6*', 'AAA*Y**!*C~\nEB*6*')],
      ['payer without name', (t) => t.replace('NM1*PR*2*REL PAYER', 'NM1*PR*2*')],
      ['garbage', () => 'ISA garbage that is not X12 at all'],
      ['empty', () => ' '],
      ['binary', (t) => Buffer.from(Buffer.from(t).map((b, i) => (i % 7 === 3 ? 0xfe : b))).toString('latin1')],
    ];
    const coverageNow = async () => db('coverage').where({ id: coverageId }).first('version_id', 'status', 'payor_name', 'period_start');
    const storedBefore = await storedByStatus('x12');
    const before = await coverageNow();
    const eventsBefore = await db('webhook_events').where({ org_id: org, event_type: 'coverage.updated' }).count({ n: '*' }).first();
    const samples = fc.sample(fc.tuple(fc.nat(X12_BREAKERS.length - 1), fc.nat(X12_BREAKERS.length - 1), fc.boolean()), { seed: SEED + 1, numRuns: X12_BODIES });
    for (const [a, b, twice] of samples) {
      let text = X12_BREAKERS[a]![1](good());
      if (twice && a !== b) text = X12_BREAKERS[b]![1](text);
      const { res, failures } = await checkedSend(service, { method: 'POST', target: `/api/v1/ingest/${org}/${facility}/x12`, headers: { ...bearer(token), 'content-type': 'application/edi-x12' }, body: text });
      figures.feeds.x12++;
      const why = `${X12_BREAKERS[a]![0]}${twice && a !== b ? ` + ${X12_BREAKERS[b]![0]}` : ''}`;
      expect(failures, why).to.deep.equal([]);
      expect(res.status, `${why}: ${res.text.slice(0, 300)}`).to.equal(400);
      expect(res.body.error.code, why).to.equal('invalid_x12');
      expect(res.body.error.details[0].field, why).to.match(/^body \(/);
      const after = await coverageNow();
      if (JSON.stringify(after) !== JSON.stringify(before)) figures.feeds.partialWrites++;
      expect(after, why).to.deep.equal(before);
    }
    expect(await db('webhook_events').where({ org_id: org, event_type: 'coverage.updated' }).count({ n: '*' }).first()).to.deep.equal(eventsBefore);
    // Each refused interchange is in the message store, refused, with its answer: 0 lost.
    const storedAfter = await storedByStatus('x12');
    expect((storedAfter.refused ?? 0) - (storedBefore.refused ?? 0), 'refused 271s stored').to.equal(samples.length);
    expect(total(storedAfter) - total(storedBefore)).to.equal(samples.length);
    // The well-formed interchange is applied: the Coverage was reachable all along.
    const { res } = await checkedSend(service, { method: 'POST', target: `/api/v1/ingest/${org}/${facility}/x12`, headers: { ...bearer(token), 'content-type': 'application/edi-x12' }, body: good() });
    expect(res.status).to.equal(200);
    expect(res.body.data).to.include({ matched: 1, updated: 1 });
    expect(await coverageNow()).to.include({ status: 'cancelled', payor_name: 'REL PAYER' });
  });
});
