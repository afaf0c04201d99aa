// End to end, the operator's Monday morning (issue 42): an ADT^A01 from a facility code nobody
// registered is answered AE and kept; `ops messages list` shows it refused with its reason;
// after `ops facility update --hl7-code` and `ops messages reprocess` the resident exists with
// one resident.admitted, and a second reprocess applies nothing. The same for a refused FHIR
// Bundle. The message's text never reaches a log, nor a list or a show without --raw. A Bundle
// or an interchange over INGEST_MAX_BUNDLE_BYTES, answered 413 unread, is kept too: its size
// and answer, no content.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { startTestService, type TestService } from '../support/service.js';
import { jsonOf, runOps } from '../support/ops-cli.js';
import { adtMessage, MRN_SYSTEM } from '../support/adt-messages.js';
import { mllpClient, msa } from '../support/mllp.js';
import { bundle, postBundle } from '../support/ingest.js';
import { byMrn, coverage, MRN, patient } from '../support/fhir-resources.js';
import { tokenFor } from '../support/http.js';
import { createClient } from '../../server/src/auth/clients.js';
import { assertMatchesContract } from '../support/contract.js';

/** Kept small here so an oversize message is cheap to send. */
const MAX_BUNDLE_BYTES = 20_000;

describe('the message store: find a refused message, fix the cause, reprocess it once', function () {
  this.timeout(120_000);
  let service: TestService;
  let db: Knex;
  let orgId: string;
  let facilityId: string;
  let env: Record<string, string>;

  before(async () => {
    service = await startTestService({ env: { MLLP_PORT: '0', INGEST_MAX_BUNDLE_BYTES: String(MAX_BUNDLE_BYTES) } });
    db = service.running.app.db;
    orgId = (await service.seed.org('Quill Care')).id;
    facilityId = (await service.seed.facility(orgId, 'Quill House')).id;
    env = { DATABASE_URL: service.database.url, WEBHOOK_ENCRYPTION_KEY: service.config.webhooks.encryptionKey! };
  });
  after(async () => {
    await service?.close();
  });

  const residentIdOf = async (system: string, mrn: string) => (await db('resource_identifiers').where({ org_id: orgId, resource_type: 'Patient', system, value: mrn }).first('resource_id'))?.resource_id as string | undefined;
  const admissions = async (residentId: string) => Number((await db('webhook_events').where({ resident_id: residentId, event_type: 'resident.admitted' }).count({ n: '*' }).first())!.n);

  it('an ADT^A01 for an unknown facility code: AE, listed refused with its reason; after --hl7-code and reprocess, one admission; reprocessed twice, applied once', async () => {
    const text = adtMessage({ event: 'A01', controlId: 'MS-A01-1', mrn: 'MS-HL7-1', facility: 'QUILL-NEW', family: 'Quillfeather', given: 'Marguerite' });
    const client = await mllpClient(service.running.mllp!.port);
    const ack = msa(await client.send(text));
    client.close();
    expect(ack.code).to.equal('AE');
    expect(await residentIdOf(MRN_SYSTEM, 'MS-HL7-1')).to.equal(undefined);

    const listed = jsonOf(await runOps(['messages', 'list', '--org', orgId, '--status', 'refused', '--type', 'ADT^A01', '--json'], env));
    expect(listed.messages).to.have.length(1);
    const [message] = listed.messages;
    expect(message).to.include({ road: 'mllp', format: 'hl7v2', message_type: 'ADT^A01', control_id: 'MS-A01-1', status: 'refused', current_status: 'refused', answer_code: 'AE', has_content: true });
    expect(message.source).to.include({ sending_application: 'TESTADT', sending_facility: 'QUILL-NEW', peer: '127.0.0.1' });
    expect(message.reason).to.match(/^PV1-3\.4: no facility has HL7 code "QUILL-NEW"/);
    expect(message.size_bytes).to.equal(Buffer.byteLength(text));

    // Without --raw, nothing of the content; with it, the text and its segments.
    const shown = jsonOf(await runOps(['messages', 'show', message.id, '--json'], env));
    expect(shown.answer.errors[0]).to.include({ severity: 'error', code: '204', where: 'PV1-3.4' });
    expect(JSON.stringify(shown)).not.to.include('Quillfeather');
    const raw = jsonOf(await runOps(['messages', 'show', message.id, '--raw', '--json'], env));
    expect(raw.content.raw).to.equal(text);
    expect(raw.content.segments[2].slice(0, 6)).to.deep.equal(['PID', '1', '', 'MS-HL7-1^^^MAPLEMRN&2.16.840.1.113883.19.5&ISO^MR', '', 'Quillfeather^Marguerite^^^^^L']);
    // At rest the content is encrypted.
    const stored = await db('inbound_messages').where({ id: message.id }).first('content_encrypted');
    expect(stored.content_encrypted).to.match(/^v1:/).and.not.include('Quillfeather');

    // The operator registers the code and reprocesses.
    jsonOf(await runOps(['facility', 'update', facilityId, '--hl7-code', 'QUILL-NEW', '--json'], env));
    const first = jsonOf(await runOps(['messages', 'reprocess', message.id, '--json'], env));
    expect(first.results).to.have.length(1);
    expect(first.results[0]).to.include({ message_id: message.id, status: 'applied', answer_code: 'AA' });
    const residentId = await residentIdOf(MRN_SYSTEM, 'MS-HL7-1');
    expect(residentId).to.be.a('string');
    expect(first.results[0].resident_id).to.equal(residentId);
    expect(first.results[0].records).to.deep.include({ type: 'Patient', id: residentId, version: 1, outcome: 'created' });
    expect(await admissions(residentId!)).to.equal(1);

    // Again: nothing run, nothing written.
    const second = jsonOf(await runOps(['messages', 'reprocess', message.id, '--json'], env));
    expect(second.results[0]).to.include({ message_id: message.id, status: 'duplicate' });
    expect(await admissions(residentId!)).to.equal(1);

    // The message is now listed applied, with its outcomes linked; the resident finds it.
    const after = jsonOf(await runOps(['messages', 'show', message.id, '--json'], env));
    expect(after).to.include({ status: 'refused', current_status: 'applied', received_at: message.received_at });
    expect(after.outcomes.map((o: { status: string; reprocess_of: string }) => [o.status, o.reprocess_of])).to.deep.equal([
      ['applied', message.id],
      ['duplicate', message.id],
    ]);
    const byResident = jsonOf(await runOps(['messages', 'list', '--org', orgId, '--resident', residentId!, '--json'], env));
    expect(byResident.messages.map((m: { id: string }) => m.id)).to.deep.equal([message.id]);
    expect(jsonOf(await runOps(['messages', 'list', '--org', orgId, '--status', 'refused', '--json'], env)).messages).to.deep.equal([]);

    // The sender re-sends it meanwhile: a duplicate, stored as such.
    const resend = await mllpClient(service.running.mllp!.port);
    expect(msa(await resend.send(text)).code).to.equal('AA');
    resend.close();
    const duplicates = jsonOf(await runOps(['messages', 'list', '--org', orgId, '--status', 'duplicate', '--json'], env));
    expect(duplicates.messages.map((m: { control_id: string }) => m.control_id)).to.deep.equal(['MS-A01-1']);
    expect(await admissions(residentId!)).to.equal(1);

    // Who listed, showed and reprocessed what is in the audit trail.
    const audited = (await db('audit_events').where('operation', 'like', 'messages.%').select('operation', 'client_id')) as Array<{ operation: string; client_id: string }>;
    expect(new Set(audited.map((a) => a.operation))).to.deep.equal(new Set(['messages.list', 'messages.show', 'messages.show_raw', 'messages.reprocess']));
    expect(audited.every((a) => a.client_id.startsWith('ops-cli:'))).to.equal(true);
    // And the metric counts every stored outcome.
    const metrics = await service.running.app.metrics.registry.getSingleMetricAsString('ofctx_inbound_messages_total');
    expect(metrics).to.match(/ofctx_inbound_messages_total\{road="mllp",status="refused"\} 1/);
    expect(metrics).to.match(/ofctx_inbound_messages_total\{road="mllp",status="duplicate"\} 1/);
    expect(service.logs()).not.to.include('Quillfeather');
    expect(service.logs()).not.to.include('MS-HL7-1');
  });

  it('a FHIR transaction Bundle refused (its Coverage names a resident not known yet): listed refused, applied once by reprocess after the resident arrives', async () => {
    const source = await createClient(db, { orgId, facilityIds: [facilityId], scopes: ['ingest.write'], name: 'EHR', kind: 'ingest' });
    const token = await tokenFor(service.baseUrl, source, 'ingest.write');
    const url = 'urn:uuid:0f6e7a1c-3b55-4c44-9d1e-7a2b3c4d5e6f';
    const body = { ...bundle('transaction', [{ resource: patient('MS-FHIR-1', { name: [{ family: 'Wrenfield', given: ['Ottoline'] }] }), fullUrl: url }, { resource: coverage(byMrn('MS-FHIR-SPOUSE'), 'MS-COV-1', { subscriber: byMrn('MS-FHIR-SPOUSE') }) }]), identifier: { value: 'MS-BUNDLE-1' } };
    const refused = await postBundle(service.baseUrl, token, orgId, facilityId, body);
    expect(refused.status).to.be.oneOf([404, 409, 422]);
    const listed = jsonOf(await runOps(['messages', 'list', '--org', orgId, '--status', 'refused', '--type', 'Bundle', '--json'], env));
    expect(listed.messages).to.have.length(1);
    const [message] = listed.messages;
    expect(message).to.include({ road: 'fhir', format: 'fhir-bundle', message_type: 'Bundle', control_id: 'MS-BUNDLE-1', answer_code: String(refused.status), status: 'refused' });
    expect(message.source.client_id).to.equal(source.client_id);
    expect(message.reason).to.include('Bundle.entry[1]');
    expect(await residentIdOf(MRN, 'MS-FHIR-1')).to.equal(undefined);

    // The spouse's record arrives; the operator reprocesses what was refused since this morning.
    expect((await postBundle(service.baseUrl, token, orgId, facilityId, bundle('transaction', [{ resource: patient('MS-FHIR-SPOUSE') }]))).status).to.equal(200);
    const first = jsonOf(await runOps(['messages', 'reprocess', '--org', orgId, '--status', 'refused', '--type', 'Bundle', '--since', '1h', '--json'], env));
    expect(first.results.map((r: { message_id: string; status: string }) => [r.message_id, r.status])).to.deep.equal([[message.id, 'applied']]);
    const residentId = await residentIdOf(MRN, 'MS-FHIR-1');
    expect(residentId).to.be.a('string');
    expect(await admissions(residentId!)).to.equal(1);
    expect(first.results[0].records.map((r: { type: string }) => r.type).sort()).to.deep.equal(['Coverage', 'Patient']);

    const second = jsonOf(await runOps(['messages', 'reprocess', message.id, '--json'], env));
    expect(second.results[0].status).to.equal('duplicate');
    expect(await admissions(residentId!)).to.equal(1);
    expect(Number((await db('coverage').where({ org_id: orgId }).count({ n: '*' }).first())!.n)).to.equal(1);
    expect(service.logs()).not.to.include('Wrenfield');
  });

  it('a Bundle or a 271 over INGEST_MAX_BUNDLE_BYTES, answered 413 unread: listed refused with its size and reason, no content; a reprocess says why it cannot run', async () => {
    const source = await createClient(db, { orgId, facilityIds: [facilityId], scopes: ['ingest.write'], name: 'Big sender', kind: 'ingest' });
    const token = await tokenFor(service.baseUrl, source, 'ingest.write');
    // A Bundle whose Content-Length is over the limit: refused before a byte of it is read.
    const big = JSON.stringify({ ...bundle('batch', [{ resource: patient('MS-BIG-1', { name: [{ family: 'Oversizewright', given: ['Bea'] }] }) }]), padding: 'x'.repeat(MAX_BUNDLE_BYTES) });
    const refused = await postBundle(service.baseUrl, token, orgId, facilityId, big);
    expect(refused.status).to.equal(413);
    // An interchange sent chunked (no Content-Length): refused once the limit is passed.
    const chunk = `ISA*00*          *00*          *ZZ*BIGPAYER       *ZZ*FACILITY       *260101*1200*^*00501*000000905*0*P*:~${'REF*SY*123456789~'.repeat(2000)}`;
    const response = await fetch(`${service.baseUrl}/api/v1/ingest/${orgId}/${facilityId}/x12`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/edi-x12' },
      body: new ReadableStream({ start: (controller) => { for (let i = 0; i < 2; i++) controller.enqueue(new TextEncoder().encode(chunk)); controller.close(); } }),
      duplex: 'half',
    } as RequestInit);
    const answer = await response.json();
    await assertMatchesContract('POST', `${service.baseUrl}/api/v1/ingest/${orgId}/${facilityId}/x12`, response.status, response.headers, answer);
    expect(response.status).to.equal(413);
    expect(answer.error.code).to.equal('payload_too_large');

    const listed = jsonOf(await runOps(['messages', 'list', '--org', orgId, '--status', 'refused', '--since', '1h', '--json'], env));
    const bundleRow = listed.messages.find((m: { message_type: string; answer_code: string }) => m.message_type === 'Bundle' && m.answer_code === '413');
    const x12Row = listed.messages.find((m: { message_type: string }) => m.message_type === '271');
    expect(bundleRow).to.include({ road: 'fhir', format: 'fhir-bundle', status: 'refused', has_content: false, size_bytes: Buffer.byteLength(big), control_id: null });
    expect(bundleRow.reason).to.match(/^The Bundle exceeds 20000 bytes \(INGEST_MAX_BUNDLE_BYTES\)/);
    expect(bundleRow.source.client_id).to.equal(source.client_id);
    expect(x12Row).to.include({ road: 'x12', format: 'x12-271', status: 'refused', answer_code: '413', has_content: false });
    expect(x12Row.size_bytes).to.be.greaterThan(MAX_BUNDLE_BYTES);
    const shown = jsonOf(await runOps(['messages', 'show', bundleRow.id, '--json'], env));
    expect(shown.answer.body.resourceType).to.equal('OperationOutcome');
    expect(shown.answer.errors[0]).to.include({ severity: 'error', code: 'payload_too_large' });

    const again = await runOps(['messages', 'reprocess', bundleRow.id, '--json'], env);
    expect(again.code).to.not.equal(0);
    expect(again.stderr).to.include('its content was not kept').and.include('INGEST_MAX_BUNDLE_BYTES');
    expect(service.logs()).not.to.include('Oversizewright');
  });
});
