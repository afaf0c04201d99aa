// The message store on its own: content encrypted and bound to its row, lists newest first by
// cursor with their filters, a show confined to an organization, unattributed messages apart,
// every list and show audited, and the retention purge by received_at.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { freshKnexForSuite } from '../../../test/support/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createFacility, createOrganization } from '../../src/organizations/organizations.js';
import { MessageStore } from '../../src/messages/message-store.js';
import { listMessages, showMessage } from '../../src/messages/message-queries.js';
import type { MessageViewer, ReceivedMessage } from '../../src/messages/message-types.js';
import { SigningSecretCipher } from '../../src/db/signing-secret-crypto.js';
import { purgeExpired } from '../../src/retention/purge-expired.js';
import type { AuditEntry } from '../../src/audit/audit-trail.js';

const DAY = 86_400_000;

describe('the message store', () => {
  const knex = freshKnexForSuite(async (db) => void (await migrateToLatest(db)));
  const audited: AuditEntry[] = [];
  const viewer: MessageViewer = { actor: 'ops-cli:test', requestId: 'r-1', audit: { record: async (e) => void audited.push(e) } };
  let store: MessageStore;
  let orgId: string;
  let otherOrg: string;
  let facilityId: string;

  const received = (o: Partial<ReceivedMessage> & { content: string }): ReceivedMessage => ({
    road: 'mllp',
    format: 'hl7v2',
    orgId,
    facilityId,
    source: { client_id: null, peer: '10.0.0.7', sending_application: 'EHR', sending_facility: 'HOME' },
    messageType: 'ADT^A01',
    controlId: 'C-1',
    ...o,
  });

  before(async () => {
    store = new MessageStore(knex(), new SigningSecretCipher(randomBytes(32)));
    orgId = (await createOrganization(knex(), 'Store')).id;
    otherOrg = (await createOrganization(knex(), 'Other')).id;
    facilityId = (await createFacility(knex(), orgId, 'Home')).id;
  });

  it('keeps the content encrypted, bound to its row, and shows it only when asked', async () => {
    const id = await store.store(received({ content: 'MSH|^~\\&|EHR|HOME|||20260101||ADT^A01|C-1|P|2.5.1\rPID|1||123||Quill^Agnes' }), { status: 'refused', answer: { code: 'AE', errors: [{ severity: 'error', code: '204', where: 'PV1-3.4', text: 'no facility' }] }, records: [] });
    const row = await knex()('inbound_messages').where({ id }).first();
    expect(row.content_encrypted).to.match(/^v1:/).and.not.include('Quill');
    expect(row.reason).to.equal('PV1-3.4: no facility');
    // Copied onto another row, it does not open.
    expect(() => store.content({ id: orgId, content_encrypted: row.content_encrypted })).to.throw();
    const plain = await showMessage(store, id, {}, viewer);
    expect(plain!.content).to.equal(undefined);
    expect(JSON.stringify(plain)).not.to.include('Quill');
    const raw = await showMessage(store, id, { raw: true }, viewer);
    expect(raw!.content!.segments![1]!.slice(0, 6)).to.deep.equal(['PID', '1', '', '123', '', 'Quill^Agnes']);
    expect(raw!.content!.segments![0]!.slice(0, 3)).to.deep.equal(['MSH', '|', '^~\\&']);
    // Confined to an organization (the console's), another one's message is not found.
    expect(await showMessage(store, id, { orgId: otherOrg }, viewer)).to.equal(undefined);
    expect(audited.map((a) => a.operation)).to.deep.equal(['messages.show', 'messages.show_raw']);
    expect(audited[1]).to.include({ clientId: 'ops-cli:test', orgId });
  });

  it('gives each message a time-ordered id (version 7, its receipt millisecond), so the store appends to its id index', async () => {
    const before = Date.now();
    const first = await store.store(received({ content: 'MSH|^~\\&|EHR|HOME|||20260101||ADT^A01|C-7|P|2.5.1' }), { status: 'applied', answer: { code: 'AA', errors: [] }, records: [] });
    const second = await store.store(received({ content: 'MSH|^~\\&|EHR|HOME|||20260101||ADT^A01|C-8|P|2.5.1' }), { status: 'applied', answer: { code: 'AA', errors: [] }, records: [] });
    const millisecondOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    for (const id of [first, second]) {
      expect(id[14]).to.equal('7');
      expect(millisecondOf(id)).to.be.within(before, Date.now());
    }
    expect(millisecondOf(second)).to.be.at.least(millisecondOf(first));
  });

  it('lists newest first by cursor, with its filters; unattributed messages apart', async () => {
    const base = Date.now() - 10 * 60_000;
    for (let i = 0; i < 5; i++) {
      await store.store(received({ content: `m${i}`, controlId: `L-${i}`, receivedAt: new Date(base + i * 1000).toISOString(), messageType: i % 2 ? 'ADT^A03' : 'ADT^A01' }), { status: i === 4 ? 'refused' : 'applied', answer: { code: i === 4 ? 'AE' : 'AA', errors: [] }, records: [] });
    }
    await store.store(received({ content: 'x', orgId: null, facilityId: null, controlId: 'U-1' }), { status: 'refused', answer: { code: 'AE', errors: [] }, records: [] });
    const since = new Date(base - 1).toISOString();
    const until = new Date(base + 10_000).toISOString();
    const first = await listMessages(knex(), { orgId, since, until, limit: 2 }, viewer);
    expect(first.messages.map((m) => m.control_id)).to.deep.equal(['L-4', 'L-3']);
    const second = await listMessages(knex(), { orgId, since, until, limit: 2, cursor: first.next! }, viewer);
    expect(second.messages.map((m) => m.control_id)).to.deep.equal(['L-2', 'L-1']);
    const last = await listMessages(knex(), { orgId, since, until, limit: 2, cursor: second.next! }, viewer);
    expect(last.messages.map((m) => m.control_id)).to.deep.equal(['L-0']);
    expect(last.next).to.equal(null);
    expect((await listMessages(knex(), { orgId, since, until, type: 'ADT^A03' }, viewer)).messages.map((m) => m.control_id)).to.deep.equal(['L-3', 'L-1']);
    expect((await listMessages(knex(), { orgId, since, until, type: 'ADT' }, viewer)).messages).to.have.length(5);
    expect((await listMessages(knex(), { orgId, since, until, status: 'refused' }, viewer)).messages.map((m) => m.control_id)).to.deep.equal(['L-4']);
    expect((await listMessages(knex(), { orgId: null }, viewer)).messages.map((m) => m.control_id)).to.deep.equal(['U-1']);
    expect((await listMessages(knex(), { orgId: otherOrg }, viewer)).messages).to.deep.equal([]);
  });

  it('is purged after MESSAGE_RETENTION_DAYS, by received_at', async () => {
    const old = await store.store(received({ content: 'old', controlId: 'OLD', receivedAt: new Date(Date.now() - 31 * DAY).toISOString() }), { status: 'applied', answer: { code: 'AA', errors: [] }, records: [] });
    const before = Number((await knex()('inbound_messages').count({ n: '*' }).first())!.n);
    const report = await purgeExpired(knex(), { auditDays: 2190, deliveryDays: 30, messageDays: 30, batchSize: 2 });
    expect(report.removed.inbound_messages).to.equal(1);
    expect(await knex()('inbound_messages').where({ id: old }).first()).to.equal(undefined);
    expect(Number((await knex()('inbound_messages').count({ n: '*' }).first())!.n)).to.equal(before - 1);
  });
});
