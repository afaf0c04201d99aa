// Messages that carry a whole record (ORU^R01 results, ORM^O01 orders, ADT^A01 with IN1, AL1,
// DG1 and OBX), generated well-formed and broken in zero to two places each, sent over MLLP one
// at a time. The invariants hold whether the listener applies such messages or refuses them:
// every message is answered with an ACK of its control id (AA, AE or AR; ERR when not AA), the
// connection and the service survive, and no message is half-written: a message answered
// other than AA leaves the row count of every table of the organization as it was (residents,
// observations, allergies, conditions, coverage, orders, events, control ids: read from the
// schema, so tables added later are counted too); one answered AA records its control id, and
// sent again it is answered AA and changes nothing. Well-formed ADT admissions between them
// prove the counts see a write.
//   FEEDS_FUZZ_SEED=7 FEEDS_FUZZ_CLINICAL=600 npm run test:reliability
import { expect } from 'chai';
import fc from 'fast-check';
import { createFacility, createOrganization, setFacilityHl7Code } from '../../server/src/organizations/organizations.js';
import { figures } from './support/figures.js';
import { suiteService } from './support/suite.js';
import { changedCounts, orgRowCounts, storedMessages } from './support/org-row-counts.js';
import type { TestService } from '../support/service.js';
import { adtMessage } from '../support/adt-messages.js';
import { adtRecordMessage, labObservations, ormMessage, oruMessage, type ObservationOptions } from '../support/hl7-clinical-messages.js';
import { mllpClient, msa, type MllpTestClient } from '../support/mllp.js';

const SEED = Number(process.env.FEEDS_FUZZ_SEED ?? 20261124);
const MESSAGES = Number(process.env.FEEDS_FUZZ_CLINICAL ?? 400);
/** A facility code as senders write it: spaces and punctuation. */
const FACILITY = "REL CLINICAL LAB (ST. MARY'S)";

type Segments = string[];

/** Field `n` of a segment (MSH counts its field separator as MSH-1). */
function setField(segment: string, n: number, value: string): string {
  const parts = segment.split('|');
  // MSH-1 is the field separator itself; a byte-order mark (another breaker) may come before MSH.
  const index = segment.replace(/^\uFEFF/, '').startsWith('MSH') ? n - 1 : n;
  while (parts.length <= index) parts.push('');
  parts[index] = value;
  return parts.join('|');
}

/** Applies `change` to the `pick`-th segment named `name` (counted from the end: later segments are where partial writes hide). */
function onSegment(segments: Segments, name: string, pick: number, change: (s: string) => string): Segments {
  const at = segments.map((s, i) => (s.startsWith(`${name}|`) ? i : -1)).filter((i) => i >= 0);
  if (at.length === 0) return segments;
  const index = at[at.length - 1 - (pick % at.length)]!;
  return segments.map((s, i) => (i === index ? change(s) : s));
}

const field = (name: string, n: number, value: string) => (s: Segments, pick: number) => onSegment(s, name, pick, (seg) => setField(seg, n, value));

/** One way to break a message: a name and what it does to the segments. */
const BREAKERS: Array<[string, (s: Segments, pick: number) => Segments]> = [
  ['OBX-5 letters in an NM value', field('OBX', 5, 'twelve')],
  ['OBX-2 unknown value type', field('OBX', 2, 'ZZ')],
  ['OBX-2 empty with a value', field('OBX', 2, '')],
  ['OBX-11 unknown result status', field('OBX', 11, 'Q')],
  ['OBX-14 impossible date', field('OBX', 14, '20261345')],
  ['OBX-3 empty', field('OBX', 3, '')],
  ['OBX-5 repeated', field('OBX', 5, '1~2~3')],
  ['OBX-5 broken escape sequence', field('OBX', 5, 'a\\Zq')],
  ['OBX-5 of 5000 characters', field('OBX', 5, 'X'.repeat(5000))],
  ['OBX-5 NUL', field('OBX', 5, '9\u00008')],
  ['OBX-5 components beyond any type', field('OBX', 5, `${'^'.repeat(40)}x`)],
  ['OBX set ids all 1', (s) => s.map((seg) => (seg.startsWith('OBX|') ? setField(seg, 1, '1') : seg))],
  ['OBX before OBR', (s) => {
    const obx = s.findIndex((seg) => seg.startsWith('OBX|'));
    const obr = s.findIndex((seg) => seg.startsWith('OBR|'));
    if (obx < 0 || obr < 0) return s;
    const moved = s.filter((_, i) => i !== obx);
    moved.splice(obr, 0, s[obx]!);
    return moved;
  }],
  ['no OBR', (s) => s.filter((seg) => !seg.startsWith('OBR|'))],
  ['OBR-4 empty', field('OBR', 4, '')],
  ['OBR-7 impossible date', field('OBR', 7, '20260230')],
  ['ORC-1 unknown order control', field('ORC', 1, 'ZZ')],
  ['no ORC', (s) => s.filter((seg) => !seg.startsWith('ORC|'))],
  ['AL1-3 empty', field('AL1', 3, '')],
  ['AL1-2 unknown allergen type', field('AL1', 2, 'QQ')],
  ['AL1-6 impossible date', field('AL1', 6, '20201301')],
  ['DG1-3 empty', field('DG1', 3, '')],
  ['DG1-5 impossible date', field('DG1', 5, '2026011')],
  ['DG1-6 unknown type', field('DG1', 6, 'Z')],
  ['IN1-3 empty', field('IN1', 3, '')],
  ['IN1-12 impossible date', field('IN1', 12, '20241301')],
  ['IN1-13 before IN1-12', field('IN1', 13, '20200101')],
  ['PID-3 without assigning authority', field('PID', 3, 'MRN12345')],
  ['PID-7 placeholder', field('PID', 7, 'DOB')],
  ['no PID', (s) => s.filter((seg) => !seg.startsWith('PID|'))],
  ['unknown facility code', (s) => s.map((seg) => seg.split(FACILITY).join('REL NOWHERE'))],
  ['MSH-9 structure of another message', (s) => [setField(s[0]!, 9, 'ORU^R01^ORM_O01'), ...s.slice(1)]],
  ['MSH-12 version 2.3', (s) => [setField(s[0]!, 12, '2.3'), ...s.slice(1)]],
  ['UTF-8 byte-order mark before MSH', (s) => [`\ufeff${s[0]}`, ...s.slice(1)]],
  ['Z segment in the middle', (s) => [...s.slice(0, 3), 'ZXT|1|private^stuff', ...s.slice(3)]],
  ['empty segment', (s) => [...s.slice(0, 2), '', ...s.slice(2)]],
  ['last segment cut mid-field', (s) => [...s.slice(0, -1), s[s.length - 1]!.slice(0, Math.max(4, Math.floor(s[s.length - 1]!.length / 2)))]],
  ['unknown segment with delimiters only', (s) => [...s, '|^~\\&|']],
];

interface Shape {
  kind: 'ORU' | 'ORM' | 'ADT';
  groups: number[];
  orders: number;
  plans: number;
  allergies: number;
  diagnoses: number;
  observations: number;
  breaks: Array<[number, number]>;
  lineFeeds: boolean;
  resend: boolean;
}

const shapeArb: fc.Arbitrary<Shape> = fc.record({
  kind: fc.constantFrom('ORU' as const, 'ORM' as const, 'ADT' as const),
  groups: fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 1, maxLength: 3 }),
  orders: fc.integer({ min: 1, max: 3 }),
  plans: fc.integer({ min: 0, max: 2 }),
  allergies: fc.integer({ min: 0, max: 3 }),
  diagnoses: fc.integer({ min: 0, max: 3 }),
  observations: fc.integer({ min: 0, max: 4 }),
  // Most messages are broken once or twice; some are sent well-formed.
  breaks: fc.array(fc.tuple(fc.nat(BREAKERS.length - 1), fc.nat(20)), { minLength: 0, maxLength: 2 }),
  lineFeeds: fc.integer({ min: 0, max: 4 }).map((k) => k === 0),
  resend: fc.boolean(),
});

function build(shape: Shape, controlId: string, mrn: string): { text: string; why: string } {
  const o = { controlId, mrn, facility: FACILITY };
  const mixed = (n: number): ObservationOptions[] => labObservations(n).map((obs, i) => (i % 4 === 3 ? { type: 'ST', code: '8251-1', value: 'Patient tolerated draw well' } : obs));
  const text =
    shape.kind === 'ORU'
      ? oruMessage({ ...o, groups: shape.groups.map(mixed) })
      : shape.kind === 'ORM'
        ? ormMessage({ ...o, orders: shape.orders, observations: mixed(shape.observations) })
        : adtRecordMessage({ ...o, plans: shape.plans, allergies: shape.allergies, diagnoses: shape.diagnoses, observations: mixed(shape.observations) });
  let segments = text.split('\r').filter((s, i, all) => i < all.length - 1 || s !== '');
  for (const [b, pick] of shape.breaks) segments = BREAKERS[b]![1](segments, pick);
  const why = [shape.kind, ...shape.breaks.map(([b]) => BREAKERS[b]![0]), ...(shape.lineFeeds ? ['segments ended by LF'] : [])].join(' / ');
  return { text: segments.join(shape.lineFeeds ? '\n' : '\r') + (shape.lineFeeds ? '\n' : '\r'), why };
}

describe('feeds reliability: generated ORU, ORM and whole-record ADT messages over MLLP', function () {
  this.timeout(900_000);
  let service: TestService;
  let org: string;

  before(async () => {
    service = await suiteService();
    const db = service.running.app.db;
    org = (await createOrganization(db, 'Feeds clinical reliability')).id;
    await setFacilityHl7Code(db, (await createFacility(db, org, 'Clinical lab')).id, FACILITY);
  });

  it(`${MESSAGES} generated results, orders and whole-record admissions: each answered with its control id, none half-written, the listener serving on`, async () => {
    const db = service.running.app.db;
    const port = service.running.mllp!.port;
    let client: MllpTestClient = await mllpClient(port);
    const send = async (text: string, why: string) => {
      try {
        return msa(await client.send(text));
      } catch (error) {
        figures.feeds.unanswered++;
        throw new Error(`${why}: no ACK (${(error as Error).message})`);
      }
    };
    const codes: Record<string, number> = {};
    const samples = fc.sample(shapeArb, { seed: SEED + 2, numRuns: MESSAGES });
    for (const [n, shape] of samples.entries()) {
      const controlId = `CLIN-${SEED}-${n}`;
      const { text, why } = build(shape, controlId, `CLIN-${SEED}-${n}`);
      const before = await orgRowCounts(db, org);
      const storedBefore = await storedMessages(db, 'mllp');
      const ack = await send(text, why);
      figures.feeds.clinical++;
      const context = `${why}: ${JSON.stringify(ack)}`;
      codes[ack.code ?? 'none'] = (codes[ack.code ?? 'none'] ?? 0) + 1;
      expect(ack.code, context).to.be.oneOf(['AA', 'AE', 'AR']);
      expect(ack.controlId, context).to.equal(controlId);
      if (ack.code !== 'AA') expect(ack.err, context).to.match(/^ERR\|/);
      // Stored once, with its outcome (issue 42): refused for AE/AR, applied for AA.
      const stored = changedCounts(storedBefore, await storedMessages(db, 'mllp'));
      const expectedStatuses = ack.code === 'AA' ? ['applied', 'applied_with_warnings'] : ['refused'];
      const storedOk = Object.keys(stored).length === 1 && expectedStatuses.includes(Object.keys(stored)[0]!) && Object.values(stored)[0]![1] === Object.values(stored)[0]![0] + 1;
      if (!storedOk) figures.feeds.lost = (figures.feeds.lost ?? 0) + 1;
      expect(storedOk, `${context}: stored ${JSON.stringify(stored)}`).to.equal(true);
      const changed = changedCounts(before, await orgRowCounts(db, org));
      if (ack.code === 'AA') {
        expect(changed.hl7_applied_messages, `${context}: an applied message records its control id`).to.deep.equal([before.hl7_applied_messages, before.hl7_applied_messages! + 1]);
      } else if (Object.keys(changed).length > 0) {
        figures.feeds.partialWrites++;
        expect(changed, `${context}: a message answered ${ack.code} wrote rows`).to.deep.equal({});
      }
      if (shape.resend) {
        const again = await orgRowCounts(db, org);
        const second = await send(text, `${why} (sent again)`);
        expect(second.controlId, context).to.equal(controlId);
        if (ack.code === 'AA') expect(second.code, `${context}: sent again`).to.equal('AA');
        expect(changedCounts(again, await orgRowCounts(db, org)), `${context}: sent again`).to.deep.equal({});
      }
      if (n % 25 === 0) {
        // The counts see a write: a well-formed admission changes them.
        const good = adtMessage({ event: 'A01', controlId: `${controlId}-ok`, mrn: `${controlId}-ok`, facility: FACILITY });
        const beforeGood = await orgRowCounts(db, org);
        expect((await send(good, 'good ADT')).code).to.equal('AA');
        expect(changedCounts(beforeGood, await orgRowCounts(db, org))).to.include.keys('residents', 'hl7_applied_messages', 'webhook_events');
      }
      if (n % 97 === 96) {
        // Now and then a new connection, as engines reconnect.
        client.close();
        client = await mllpClient(port);
      }
    }
    client.close();
    console.log(`    clinical messages answered: ${JSON.stringify(codes)}`);
    const last = await mllpClient(port);
    expect(msa(await last.send(adtMessage({ event: 'A01', controlId: `CLIN-${SEED}-last`, mrn: `CLIN-${SEED}-last`, facility: FACILITY }))).code).to.equal('AA');
    last.close();
  });
});
