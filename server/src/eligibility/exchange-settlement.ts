// An exchange recorded (exchange-log.ts) and its check settled under its lease (check-queue.ts)
// together, so neither is ever written without the other. On PostgreSQL that is one statement,
// the insert a WITH of the update: a check is a stream of round trips (the inquiry, the
// control number, the 271 applied), and the transaction's BEGIN, two statements and COMMIT
// were four of them. On SQLite, one transaction.
import type { Knex } from 'knex';
import { isPostgres } from '../db/database.js';
import { preparedStatements } from '../db/prepared-statements.js';
import { settlementUpdate, type ClaimedCheck, type Settlement } from './check-queue.js';
import { exchangeRow, type ExchangeRecord } from './exchange-log.js';

export async function recordAndSettle(db: Knex, record: ExchangeRecord, check: ClaimedCheck, owner: string, settlement: Settlement, now = Date.now()): Promise<void> {
  const row = exchangeRow(record);
  if (isPostgres(db)) {
    const insert = db('eligibility_exchanges').insert(row).toSQL();
    const update = settlementUpdate(db, check, owner, settlement, now).toSQL();
    // Prepared per shape (a retry, a completion, with or without a facility...), as searches are.
    await preparedStatements(db).allVarying(`WITH recorded AS (${insert.sql}) ${update.sql}`, [...insert.bindings, ...update.bindings]);
    return;
  }
  await db.transaction(async (trx) => {
    await trx('eligibility_exchanges').insert(row);
    await settlementUpdate(trx, check, owner, settlement, now);
  });
}
