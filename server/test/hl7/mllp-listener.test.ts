// The MLLP listener over real sockets: ACKs for every message (AA, AE, AR with ERR), control
// ids applied once, admission/transfer/discharge events, pipelined frames, broken framing,
// oversize messages, abrupt disconnects, the allow-list and TLS.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hl7Client } from '@medplum/hl7';
import { Hl7Message } from '@medplum/core';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { adtMessage, MRN_SYSTEM } from '../../../test/support/adt-messages.js';
import { frame, mllpClient, msa } from '../../../test/support/mllp.js';
import { setFacilityHl7Code } from '../../src/organizations/organizations.js';

describe('MLLP listener', function () {
  this.timeout(60_000);
  let service: TestService;
  let port: number;
  let orgId: string;
  let maple: string;
  let riverside: string;
  let seq = 0;
  const id = () => `CTL${++seq}`;

  before(async () => {
    service = await startTestService({ env: { MLLP_PORT: '0', MLLP_MAX_MESSAGE_BYTES: '4096' } });
    port = service.running.mllp!.port;
    const db = service.running.app.db;
    orgId = (await service.seed.org()).id;
    maple = (await service.seed.facility(orgId, 'Maple')).id;
    riverside = (await service.seed.facility(orgId, 'Riverside')).id;
    await setFacilityHl7Code(db, maple, 'MAPLE');
    await setFacilityHl7Code(db, riverside, 'RIVERSIDE');
  });
  after(async () => service?.close());

  const db = () => service.running.app.db;
  const resident = async (mrn: string) => {
    const rid = await db()('resource_identifiers').where({ org_id: orgId, resource_type: 'Patient', system: MRN_SYSTEM, value: mrn }).first('resource_id');
    return rid ? db()('residents').where({ id: rid.resource_id }).first() : undefined;
  };
  const events = async (residentId: string) => (await db()('webhook_events').where({ resident_id: residentId }).orderBy('seq').select('event_type', 'facility_id')) as Array<{ event_type: string; facility_id: string }>;

  it('applies an A01 sent by an @medplum/hl7 client: AA echoing MSH-10, an active resident, one resident.admitted', async () => {
    const client = new Hl7Client({ host: '127.0.0.1', port });
    try {
      const ack = await client.sendAndWait(Hl7Message.parse(adtMessage({ event: 'A01', controlId: 'ADMIT-1', mrn: 'M1', facility: 'MAPLE' }).trimEnd()), { timeoutMs: 20_000 });
      expect(msa(ack)).to.include({ code: 'AA', controlId: 'ADMIT-1' });
    } finally {
      await client.close();
    }
    const row = await resident('M1');
    expect(row).to.include({ facility_id: maple, family_name: 'Okafor', birth_date: '1941-03-17' });
    expect(Boolean(row.active)).to.equal(true);
    expect(await events(row.id)).to.deep.equal([{ event_type: 'resident.admitted', facility_id: maple }]);
  });

  it('acknowledges a re-sent control id AA and applies it no second time', async () => {
    const client = await mllpClient(port);
    const message = adtMessage({ event: 'A01', controlId: 'DUP-1', mrn: 'M2', facility: 'MAPLE' });
    expect(msa(await client.send(message))).to.include({ code: 'AA', controlId: 'DUP-1' });
    const first = await resident('M2');
    expect(msa(await client.send(message.replace('Okafor', 'Changed')))).to.include({ code: 'AA', controlId: 'DUP-1' });
    const again = await resident('M2');
    expect(again.version_id).to.equal(first.version_id);
    expect(again.family_name).to.equal('Okafor');
    expect(await events(first.id)).to.have.length(1);
    client.close();
  });

  it('A02 to another facility of the organization: one resident.transferred; within the facility: no event; A03: resident.discharged; A08: demographics only', async () => {
    const client = await mllpClient(port);
    expect(msa(await client.send(adtMessage({ event: 'A01', controlId: id(), mrn: 'M3', facility: 'MAPLE' }))).code).to.equal('AA');
    expect(msa(await client.send(adtMessage({ event: 'A02', controlId: id(), mrn: 'M3', facility: 'RIVERSIDE' }))).code).to.equal('AA');
    const moved = await resident('M3');
    expect(moved.facility_id).to.equal(riverside);
    expect(msa(await client.send(adtMessage({ event: 'A02', controlId: id(), mrn: 'M3', facility: 'RIVERSIDE' }))).code).to.equal('AA');
    expect(msa(await client.send(adtMessage({ event: 'A08', controlId: id(), mrn: 'M3', facility: 'MAPLE', family: 'Okafor-Hale' }))).code).to.equal('AA');
    const updated = await resident('M3');
    expect(updated).to.include({ facility_id: riverside, family_name: 'Okafor-Hale' });
    expect(msa(await client.send(adtMessage({ event: 'A03', controlId: id(), mrn: 'M3', facility: 'RIVERSIDE' }))).code).to.equal('AA');
    expect(Boolean((await resident('M3')).active)).to.equal(false);
    expect(await events(moved.id)).to.deep.equal([
      { event_type: 'resident.admitted', facility_id: maple },
      { event_type: 'resident.transferred', facility_id: riverside },
      { event_type: 'resident.discharged', facility_id: riverside },
    ]);
    client.close();
  });

  it('A11 cancels an admission (resident.discharged), A13 cancels a discharge (resident.admitted), A12 moves the resident back', async () => {
    const client = await mllpClient(port);
    for (const [event, facility] of [['A01', 'MAPLE'], ['A11', 'MAPLE'], ['A13', 'MAPLE'], ['A02', 'RIVERSIDE'], ['A12', 'MAPLE']]) {
      expect(msa(await client.send(adtMessage({ event: event!, controlId: id(), mrn: 'M4', facility: facility! }))).code, event).to.equal('AA');
    }
    const row = await resident('M4');
    expect(row.facility_id).to.equal(maple);
    expect((await events(row.id)).map((e) => e.event_type)).to.deep.equal(['resident.admitted', 'resident.discharged', 'resident.admitted', 'resident.transferred', 'resident.transferred']);
    client.close();
  });

  it('answers AE with an ERR naming the field, and writes nothing: unknown facility code', async () => {
    const client = await mllpClient(port);
    const unknown = msa(await client.send(adtMessage({ event: 'A01', controlId: 'BAD-1', mrn: 'M5', facility: 'NOWHERE' })));
    expect(unknown).to.include({ code: 'AE', controlId: 'BAD-1' });
    expect(unknown.err).to.match(/^ERR\|\|PV1\^1\^3\^1\^4\|204\^Unknown key identifier\^HL70357\|E\|\|\|\|.*NOWHERE/);
    expect(await resident('M5')).to.equal(undefined);
    // A refused control id is not remembered: the corrected message is applied.
    expect(msa(await client.send(adtMessage({ event: 'A01', controlId: 'BAD-1', mrn: 'M5', facility: 'MAPLE' }))).code).to.equal('AA');
    client.close();
  });

  it('admits a new resident whose birth date is malformed without one (ERR of severity W naming PID-7); a later readable date fills it in', async () => {
    const client = await mllpClient(port);
    const date = msa(await client.send(adtMessage({ event: 'A01', controlId: 'BAD-2', mrn: 'M5B', facility: 'MAPLE', birth: '19411332' })));
    expect(date).to.include({ code: 'AA', controlId: 'BAD-2' });
    expect(date.err).to.match(/^ERR\|\|PID\^1\^7\^1\|102\^Data type error\^HL70357\|W\|/);
    const admitted = await resident('M5B');
    expect(admitted.birth_date).to.equal(null);
    expect(Boolean(admitted.active), 'admitted').to.equal(true);
    expect(msa(await client.send(adtMessage({ event: 'A08', controlId: 'BAD-3', mrn: 'M5B', facility: 'MAPLE', birth: '19411231' }))).code).to.equal('AA');
    expect((await resident('M5B')).birth_date).to.equal('1941-12-31');
    client.close();
  });

  it('applies an update whose birth date or sex is malformed, leaving them as they were, with ERR of severity W naming PID-7 and PID-8', async () => {
    const client = await mllpClient(port);
    expect(msa(await client.send(adtMessage({ event: 'A01', controlId: 'W-1', mrn: 'M6', facility: 'MAPLE', family: 'Before' }))).code).to.equal('AA');
    const before = await resident('M6');
    const ack = await client.send(adtMessage({ event: 'A08', controlId: 'W-2', mrn: 'M6', facility: 'MAPLE', family: 'After', birth: 'DOB', sex: 'SEX' }));
    expect(msa(ack).code).to.equal('AA');
    const errs = ack.segments.filter((s) => s.name === 'ERR').map((s) => s.toString());
    expect(errs).to.have.length(2);
    expect(errs[0]).to.match(/^ERR\|\|PID\^1\^7\^1\|102\^Data type error\^HL70357\|W\|/);
    expect(errs[1]).to.match(/^ERR\|\|PID\^1\^8\^1\|103\^Table value not found\^HL70357\|W\|/);
    const after = await resident('M6');
    expect(after).to.include({ family_name: 'After', birth_date: before.birth_date, gender: before.gender });
    client.close();
  });

  it('finds a facility whose code has spaces (GOOD HEALTH HOSPITAL), in PV1-3.4 or in MSH-4, exactly as written', async () => {
    const good = (await service.seed.facility(orgId, 'Good Health')).id;
    await setFacilityHl7Code(db(), good, 'GOOD HEALTH HOSPITAL');
    const client = await mllpClient(port);
    expect(msa(await client.send(adtMessage({ event: 'A01', controlId: id(), mrn: 'G1', facility: 'GOOD HEALTH HOSPITAL' }))).code).to.equal('AA');
    expect((await resident('G1')).facility_id).to.equal(good);
    // An A08 without PV1: the facility comes from MSH-4.
    const a08 = adtMessage({ event: 'A08', controlId: id(), mrn: 'G2', facility: 'GOOD HEALTH HOSPITAL' }).split('\r').filter((s) => !s.startsWith('PV1')).join('\r');
    expect(msa(await client.send(a08)).code).to.equal('AA');
    expect((await resident('G2')).facility_id).to.equal(good);
    // Matched exactly: another case or spacing is another code.
    for (const other of ['Good Health Hospital', 'GOOD  HEALTH HOSPITAL']) {
      expect(msa(await client.send(adtMessage({ event: 'A01', controlId: id(), mrn: 'G3', facility: other }))).code, other).to.equal('AE');
    }
    expect(await resident('G3')).to.equal(undefined);
    client.close();
  });

  it('reads a message sent with a UTF-8 byte-order mark before MSH as the message', async () => {
    const client = await mllpClient(port);
    const ack = msa(await client.send(`\ufeff${adtMessage({ event: 'A01', controlId: 'BOM-1', mrn: 'BOM1', facility: 'MAPLE' })}`));
    expect(ack).to.include({ code: 'AA', controlId: 'BOM-1' });
    expect((await resident('BOM1')).facility_id).to.equal(maple);
    client.close();
  });

  it('answers pipelined frames in order, even when a read splits FS from CR', async () => {
    const client = await mllpClient(port);
    const three = Buffer.concat([1, 2, 3].map((n) => frame(adtMessage({ event: 'A01', controlId: `PIPE-${n}`, mrn: `P${n}`, facility: 'MAPLE' }))));
    const split = three.indexOf(0x1c) + 1;
    client.write(three.subarray(0, split));
    await new Promise((r) => setTimeout(r, 50));
    client.write(three.subarray(split));
    const acks = await client.acks(3);
    expect(acks.map((a) => msa(a).controlId)).to.deep.equal(['PIPE-1', 'PIPE-2', 'PIPE-3']);
    expect(acks.map((a) => msa(a).code)).to.deep.equal(['AA', 'AA', 'AA']);
    client.close();
  });

  it('applies a pipelined burst in order, each message on its own: a rejected one in the middle, the same resident twice, a control id repeated', async () => {
    const client = await mllpClient(port);
    const messages = [
      adtMessage({ event: 'A01', controlId: 'RUN-1', mrn: 'R1', facility: 'MAPLE' }),
      adtMessage({ event: 'A01', controlId: 'RUN-2', mrn: 'R2', facility: 'MAPLE', family: 'Nul\u0000l' }),
      adtMessage({ event: 'A03', controlId: 'RUN-3', mrn: 'R1', facility: 'MAPLE' }),
      adtMessage({ event: 'A01', controlId: 'RUN-1', mrn: 'R1', facility: 'MAPLE' }),
      adtMessage({ event: 'A01', controlId: 'RUN-4', mrn: 'R3', facility: 'RIVERSIDE' }),
    ];
    client.write(Buffer.concat(Array.from({ length: 4 }, (_, k) => frame(adtMessage({ event: 'A01', controlId: `RUN-W${k}`, mrn: `RW${k}`, facility: 'MAPLE' }))).concat(messages.map(frame))));
    const acks = (await client.acks(9)).slice(4).map(msa);
    expect(acks.map((a) => [a.controlId, a.code])).to.deep.equal([['RUN-1', 'AA'], ['RUN-2', 'AE'], ['RUN-3', 'AA'], ['RUN-1', 'AA'], ['RUN-4', 'AA']]);
    expect(acks[1]!.err).to.include('PID');
    expect(await resident('R2')).to.equal(undefined);
    const r1 = await resident('R1');
    expect(Boolean(r1.active)).to.equal(false);
    expect((await events(r1.id)).map((e) => e.event_type)).to.deep.equal(['resident.admitted', 'resident.discharged']);
    expect((await resident('R3')).facility_id).to.equal(riverside);
    client.close();
  });

  it('NAKs (AR) broken framing, a frame without MSH, wrong encoding characters and an oversize message, and keeps the connection', async () => {
    const client = await mllpClient(port);
    client.write(Buffer.from('MSH|^~\\&|X|MAPLE|||||ADT^A01|NOVT-1|P|2.5.1\r\x1c\r'));
    client.write(frame('PID|1||1^^^A^MR||Doe^J||19400101|F\r'));
    client.write(frame(adtMessage({ event: 'A01', controlId: 'ENC-1', mrn: 'E1', facility: 'MAPLE' }).replace('MSH|^~\\&|', 'MSH|^~^&|')));
    client.write(frame(adtMessage({ event: 'A01', controlId: 'BIG-1', mrn: 'B1', facility: 'MAPLE', family: 'X'.repeat(10_000) })));
    client.write(frame(adtMessage({ event: 'A01', controlId: 'AFTER-1', mrn: 'A1', facility: 'MAPLE' })));
    const acks = (await client.acks(5)).map(msa);
    expect(acks.map((a) => a.code)).to.deep.equal(['AR', 'AR', 'AR', 'AR', 'AA']);
    expect(acks[0]!.controlId).to.equal('NOVT-1');
    expect(acks[0]!.err).to.include('framing');
    expect(acks[1]!.err).to.include('MSH');
    expect(acks[2]!).to.include({ controlId: 'ENC-1' });
    expect(acks[2]!.err).to.include('MSH^1^2');
    expect(acks[3]!).to.include({ controlId: 'BIG-1' });
    expect(acks[3]!.err).to.include('MLLP_MAX_MESSAGE_BYTES');
    expect(acks[4]!.controlId).to.equal('AFTER-1');
    expect(await resident('B1')).to.equal(undefined);
    expect(await resident('E1')).to.equal(undefined);
    client.close();
  });

  it('survives a sender that disconnects mid-message and one that sends byte by byte', async () => {
    const rude = await mllpClient(port);
    rude.write(frame(adtMessage({ event: 'A01', controlId: 'CUT-1', mrn: 'C1', facility: 'MAPLE' })).subarray(0, 60));
    rude.socket.resetAndDestroy();
    const slow = await mllpClient(port);
    const bytes = frame(adtMessage({ event: 'A01', controlId: 'SLOW-1', mrn: 'S1', facility: 'MAPLE' }));
    for (let i = 0; i < bytes.length; i += 7) {
      slow.write(bytes.subarray(i, i + 7));
      await new Promise((r) => setImmediate(r));
    }
    expect(msa((await slow.acks(1))[0]!)).to.include({ code: 'AA', controlId: 'SLOW-1' });
    expect(await resident('C1')).to.equal(undefined);
    slow.close();
  });
});

describe('MLLP listener: allow-list and TLS', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'ofctx-mllp-tls-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('closes connections from sources outside MLLP_ALLOWED_SOURCES without reading them', async () => {
    const service = await startTestService({ env: { MLLP_PORT: '0', MLLP_ALLOWED_SOURCES: '10.0.0.0/8,192.168.1.7' } });
    try {
      const client = await mllpClient(service.running.mllp!.port);
      client.write(frame(adtMessage({ event: 'A01', controlId: 'X', mrn: 'X', facility: 'MAPLE' })));
      await client.closed();
      expect(service.logs()).to.include('not in MLLP_ALLOWED_SOURCES');
    } finally {
      await service.close();
    }
  });

  it('speaks TLS with the operator certificate, and accepts loopback when it is allowed', async () => {
    const service = await startTestService({ env: { MLLP_PORT: '0', MLLP_ALLOWED_SOURCES: '127.0.0.1', MLLP_TLS_CERT: join(dir, 'cert.pem'), MLLP_TLS_KEY: join(dir, 'key.pem') } });
    try {
      const client = await mllpClient(service.running.mllp!.port, { tls: { ca: readFileSync(join(dir, 'cert.pem')), servername: 'localhost' } });
      const ack = msa(await client.send(adtMessage({ event: 'A01', controlId: 'TLS-1', mrn: 'T1', facility: 'NOCODE' })));
      expect(ack).to.include({ code: 'AE', controlId: 'TLS-1' });
      client.close();
    } finally {
      await service.close();
    }
  });
});
