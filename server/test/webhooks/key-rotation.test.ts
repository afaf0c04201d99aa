// Rotating WEBHOOK_ENCRYPTION_KEY with the service running: during the switch the service
// holds the new key and the previous one, `ops keys rotate` (another process) re-encrypts
// every encrypted column under the new key while deliveries keep flowing, and none fails;
// afterwards the service runs on the new key alone.
import { expect } from 'chai';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { jsonOf, runOps } from '../../../test/support/ops-cli.js';
import { SigningSecretCipher } from '../../src/db/signing-secret-crypto.js';
import { ENCRYPTED_COLUMNS, rotateEncryptionKey } from '../../src/webhooks/key-rotation.js';
import { startReceiver, waitFor, type Receiver } from './support/receiver.js';
import { startWebhookService, type Tenant, type WebhookTestService } from './support/webhook-service.js';

const OLD_KEY = randomBytes(32).toString('base64');
const NEW_KEY = randomBytes(32).toString('base64');

describe('encryption key rotation', function () {
  this.timeout(90_000);

  describe('the cipher during a rotation', () => {
    const oldKey = Buffer.from(OLD_KEY, 'base64');
    const newKey = Buffer.from(NEW_KEY, 'base64');
    const id = randomUUID();
    const underOld = new SigningSecretCipher(oldKey).encrypt('ofx_whs_secret', id);
    const rotating = new SigningSecretCipher(newKey, [oldKey]);

    it('decrypts with the previous key, and encrypts with the current one only', () => {
      expect(rotating.rotating).to.equal(true);
      expect(rotating.decrypt(underOld, id)).to.equal('ofx_whs_secret');
      const fresh = rotating.encrypt('ofx_whs_fresh', id);
      expect(() => new SigningSecretCipher(oldKey).decrypt(fresh, id)).to.throw();
      expect(new SigningSecretCipher(newKey).decrypt(fresh, id)).to.equal('ofx_whs_fresh');
    });

    it('re-encrypts what the previous key opens, leaves what the current key opens, refuses the rest', () => {
      const moved = rotating.reencrypt(underOld, id)!;
      expect(new SigningSecretCipher(newKey).decrypt(moved, id)).to.equal('ofx_whs_secret');
      expect(rotating.reencrypt(moved, id)).to.equal(null);
      expect(() => rotating.reencrypt(new SigningSecretCipher(randomBytes(32)).encrypt('x', id), id)).to.throw();
      // Still bound to its subscription: another id does not open it under either key.
      expect(() => rotating.decrypt(underOld, randomUUID())).to.throw();
    });

    it('covers every encrypted column: the secret-rotation overlap column, FHIR Subscriptions\' channel headers, clearinghouse passwords, stored messages', () => {
      expect(ENCRYPTED_COLUMNS.map((c) => `${c.table}.${c.column}`)).to.deep.equal(['webhook_subscriptions.signing_secret_encrypted', 'webhook_subscriptions.previous_signing_secret_encrypted', 'webhook_subscriptions.channel_headers_encrypted', 'clearinghouse_connections.password_encrypted', 'inbound_messages.content_encrypted']);
    });
  });

  describe('with the service running', () => {
    let database: TestDatabase;
    let service: WebhookTestService | undefined;
    let receiver: Receiver;
    let tenant: Tenant;
    const secrets = new Map<string, string>();

    before(async () => {
      database = await createTestDatabase();
      receiver = await startReceiver();
      service = await startWebhookService({ database, env: { WEBHOOK_ENCRYPTION_KEY: OLD_KEY } });
      tenant = await service.tenant();
      for (let i = 0; i < 3; i++) {
        const subscription = await service.subscribe(tenant, `${receiver.url}?n=${i}`);
        secrets.set(subscription.id, subscription.signing_secret);
      }
    });
    after(async () => {
      await service?.close();
      await receiver?.close();
      await database?.drop();
    });

    const restart = async (env: Record<string, string>) => {
      await service!.close();
      service = await startWebhookService({ database, env });
    };
    const db = (): Knex => service!.running.app.db;

    /** Every delivery of the event arrives, signed with its subscription's own secret. */
    async function deliveredAndSigned(eventId: string): Promise<void> {
      const rows = await waitFor('the deliveries to finish', async () => {
        const found = await db()('webhook_deliveries').where({ event_id: eventId }).select('id', 'subscription_id', 'status');
        return found.length > 0 && found.every((r: { status: string }) => r.status !== 'pending' && r.status !== 'sending') ? found : undefined;
      });
      for (const row of rows) {
        expect(row.status, `delivery ${row.id}`).to.equal('delivered');
        const [arrived] = receiver.deliveriesOf(row.id);
        const expected = createHmac('sha256', secrets.get(row.subscription_id)!).update(arrived!.body).digest('hex');
        expect(arrived!.headers['x-service-signature']).to.equal(expected);
      }
    }

    it('re-encrypts every signing secret while deliveries keep flowing, and none fails', async () => {
      // The switch: the new key, with the old one still decrypting.
      await restart({ WEBHOOK_ENCRYPTION_KEY: NEW_KEY, WEBHOOK_ENCRYPTION_KEY_PREVIOUS: OLD_KEY });
      // A subscription registered during the switch is written under the new key.
      const during = await service!.subscribe(tenant, `${receiver.url}?n=during`);
      secrets.set(during.id, during.signing_secret);

      const events: string[] = [];
      let emitting = true;
      const emitter = (async () => {
        while (emitting) {
          events.push((await service!.emit(tenant)).event_id);
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      const run = await runOps(['keys', 'rotate', '--json'], { DATABASE_URL: database.url, WEBHOOK_ENCRYPTION_KEY: NEW_KEY, WEBHOOK_ENCRYPTION_KEY_PREVIOUS: OLD_KEY });
      emitting = false;
      await emitter;
      const report = jsonOf(run);
      expect(report.reencrypted).to.equal(3);
      expect(report.undecryptable).to.equal(0);
      expect(report.columns[0]).to.deep.include({ table: 'webhook_subscriptions', column: 'signing_secret_encrypted', reencrypted: 3, already_current: 1 });
      expect(events.length).to.be.above(0);
      for (const eventId of events) await deliveredAndSigned(eventId);

      // Every value opens with the new key alone now.
      const alone = new SigningSecretCipher(Buffer.from(NEW_KEY, 'base64'));
      for (const row of await db()('webhook_subscriptions').select('id', 'signing_secret_encrypted')) {
        expect(alone.decrypt(row.signing_secret_encrypted, row.id)).to.equal(secrets.get(row.id));
      }
    });

    it('leaves the service working on the new key alone; running it again changes nothing', async () => {
      await restart({ WEBHOOK_ENCRYPTION_KEY: NEW_KEY });
      const { event_id } = await service!.emit(tenant);
      await deliveredAndSigned(event_id);
      const again = jsonOf(await runOps(['keys', 'rotate', '--json'], { DATABASE_URL: database.url, WEBHOOK_ENCRYPTION_KEY: NEW_KEY }));
      expect(again.reencrypted).to.equal(0);
      expect(again.columns[0].already_current).to.equal(4);
    });

    it('includes the overlap column of secret rotation when the schema has it', async () => {
      const table = 'webhook_subscriptions';
      const column = 'previous_signing_secret_encrypted';
      if (!(await db().schema.hasColumn(table, column))) await db().schema.alterTable(table, (t) => void t.text(column).nullable());
      const [id] = [...secrets.keys()];
      const oldCipher = new SigningSecretCipher(Buffer.from(OLD_KEY, 'base64'));
      await db()(table).where({ id }).update({ [column]: oldCipher.encrypt('ofx_whs_overlap', id!) });
      const rotating = new SigningSecretCipher(Buffer.from(NEW_KEY, 'base64'), [Buffer.from(OLD_KEY, 'base64')]);
      const report = await rotateEncryptionKey(db(), rotating);
      expect(report.columns.find((c) => c.column === column)).to.deep.include({ reencrypted: 1, already_current: 0 });
      const stored = (await db()(table).where({ id }).first(column))[column];
      expect(new SigningSecretCipher(Buffer.from(NEW_KEY, 'base64')).decrypt(stored, id!)).to.equal('ofx_whs_overlap');
    });

    it('fails (exit 1) naming the subscriptions no given key opens, after re-encrypting the others', async () => {
      const [id] = [...secrets.keys()];
      await db()('webhook_subscriptions').where({ id }).update({ signing_secret_encrypted: new SigningSecretCipher(randomBytes(32)).encrypt('x', id!) });
      const run = await runOps(['keys', 'rotate', '--json'], { DATABASE_URL: database.url, WEBHOOK_ENCRYPTION_KEY: NEW_KEY });
      expect(run.code).to.equal(1);
      expect(run.stdout).to.equal('');
      expect(run.stderr).to.include(id!).and.to.match(/open with neither WEBHOOK_ENCRYPTION_KEY nor WEBHOOK_ENCRYPTION_KEY_PREVIOUS/);
    });
  });
});
