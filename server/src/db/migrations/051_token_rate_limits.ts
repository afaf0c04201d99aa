// PostgreSQL: the token endpoint's per-address counters (auth/token-rate-limiter.ts) get their
// table from a migration, no longer from rate-limiter-flexible at each start.
//
// WHY: the library ran `CREATE TABLE IF NOT EXISTS token_rate_limits` as every instance
// started. Two instances starting together on a new database both created it, and one of them
// failed to start with `type "token_rate_limits" already exists` (PostgreSQL checks IF NOT
// EXISTS before it takes a lock; the library forgives only the unique violation, 23505, not
// this duplicate_object, 42710). The instance-churn reliability world hit it. Migrations run
// under knex's lock, one process at a time, and the limiter is now told the table exists.
// The columns are the library's own (RateLimiterPostgres._getCreateTableStmt, version 11), and
// a database where the library already made the table keeps it as it is. SQLite counts in
// memory: no table.
import type { Knex } from 'knex';
import { isPostgres } from '../database.js';

export async function up(db: Knex): Promise<void> {
  if (!isPostgres(db)) return;
  await db.raw(`CREATE TABLE IF NOT EXISTS token_rate_limits (
    key varchar(255) PRIMARY KEY,
    points integer NOT NULL DEFAULT 0,
    expire bigint
  )`);
}

export async function down(): Promise<void> {
  // The table stays: the code before this migration expects it, and made it when it was missing.
}
