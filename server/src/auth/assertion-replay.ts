// A client assertion's `jti` is accepted once (RFC 7523 section 3, SMART Backend Services).
// The (client, jti) pair is inserted under a primary key: the database refuses the second
// insert, so two instances on one PostgreSQL database cannot both accept one assertion.
// Rows are kept until the assertion expires, then purged (at most once a minute).
import type { Knex } from 'knex';

const PURGE_EVERY_MS = 60_000;

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? '';
  return code === '23505' || code.startsWith('SQLITE_CONSTRAINT');
}

export class AssertionReplayGuard {
  private lastPurge = 0;

  constructor(
    private readonly db: Knex,
    private readonly now: () => number = Date.now,
  ) {}

  /** True the first time a (client, jti) is presented; false on every later time. */
  async consume(clientId: string, jti: string, expiresAtMs: number): Promise<boolean> {
    await this.purgeExpired();
    try {
      await this.db('client_assertion_jtis').insert({ client_id: clientId, jti, expires_at: expiresAtMs });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  private async purgeExpired(): Promise<void> {
    const now = this.now();
    if (now - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now;
    await this.db('client_assertion_jtis').where('expires_at', '<', now).delete();
  }
}
