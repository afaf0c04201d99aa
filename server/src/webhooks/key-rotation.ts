// `ops keys rotate`: every encrypted column re-encrypted under the current
// WEBHOOK_ENCRYPTION_KEY, while WEBHOOK_ENCRYPTION_KEY_PREVIOUS still decrypts what is not yet
// done. Row by row, each update conditional on the value it read, so a row changed meanwhile
// (a subscription created, a secret rotated) is re-read, never overwritten. Safe to run while
// the service runs and to run again: rows already under the current key are left alone.
import type { Knex } from 'knex';
import type { SigningSecretCipher } from '../db/signing-secret-crypto.js';

/** Every column encrypted with the webhook key, and the row id each one binds as AAD. */
export const ENCRYPTED_COLUMNS: Array<{ table: string; column: string; aad: string }> = [
  { table: 'webhook_subscriptions', column: 'signing_secret_encrypted', aad: 'id' },
  // Added by secret rotation (the overlap of an old and a new signing secret); absent before.
  { table: 'webhook_subscriptions', column: 'previous_signing_secret_encrypted', aad: 'id' },
  // A FHIR Subscription's channel.header (fhir/fhir-subscription-store.ts): they may carry the receiver's credential.
  { table: 'webhook_subscriptions', column: 'channel_headers_encrypted', aad: 'id' },
  // Clearinghouse passwords (eligibility/clearinghouse-connections.ts), under the same key.
  { table: 'clearinghouse_connections', column: 'password_encrypted', aad: 'id' },
  // Inbound messages as received (the message store, messages/message-store.ts), under the same key.
  { table: 'inbound_messages', column: 'content_encrypted', aad: 'id' },
];

export interface RotationReport {
  /** Per `table.column`: values re-encrypted, already under the current key, and those no key opens. */
  columns: Array<{ table: string; column: string; reencrypted: number; already_current: number; undecryptable: string[] }>;
  reencrypted: number;
  undecryptable: number;
}

const BATCH = 200;

export async function rotateEncryptionKey(db: Knex, cipher: SigningSecretCipher, columns = ENCRYPTED_COLUMNS): Promise<RotationReport> {
  const report: RotationReport = { columns: [], reencrypted: 0, undecryptable: 0 };
  for (const { table, column, aad } of columns) {
    if (!(await db.schema.hasTable(table)) || !(await db.schema.hasColumn(table, column))) continue;
    const entry = { table, column, reencrypted: 0, already_current: 0, undecryptable: [] as string[] };
    let after: string | number = -1;
    for (;;) {
      const rows = (await db(table).where('seq', '>', after).whereNotNull(column).orderBy('seq').limit(BATCH).select('seq', aad, column)) as Array<Record<string, string | number>>;
      if (rows.length === 0) break;
      for (const row of rows) {
        const bound = String(row[aad]);
        let value = String(row[column]);
        // A lost race (the row changed under us) is retried on the fresh value.
        for (let tries = 0; ; tries++) {
          let next: string | null;
          try {
            next = cipher.reencrypt(value, bound);
          } catch {
            entry.undecryptable.push(bound);
            break;
          }
          if (next === null) {
            entry.already_current++;
            break;
          }
          const updated = await db(table).where({ seq: row.seq, [column]: value }).update({ [column]: next });
          if (updated === 1) {
            entry.reencrypted++;
            break;
          }
          const fresh = await db(table).where({ seq: row.seq }).first(column);
          if (!fresh?.[column] || tries > 5) {
            entry.already_current++;
            break;
          }
          value = String(fresh[column]);
        }
      }
      after = rows[rows.length - 1]!.seq!;
    }
    report.columns.push(entry);
    report.reencrypted += entry.reencrypted;
    report.undecryptable += entry.undecryptable.length;
  }
  return report;
}
