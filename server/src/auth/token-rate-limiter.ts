// Per-IP limit on the token endpoint, to blunt credential stuffing. On PostgreSQL the
// counters live in the shared database, so every instance enforces one limit together.
import type { Knex } from 'knex';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { isPostgres } from '../db/database.js';

export interface RateLimitVerdict {
  allowed: boolean;
  retryAfterSeconds: number;
  /** Requests this address may still make in the current window. */
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export class TokenRateLimiter {
  private constructor(
    private readonly limiter: RateLimiterAbstract,
    /** Requests per window, and the window in seconds. */
    readonly points: number,
    readonly windowSeconds: number,
  ) {}

  static async create(db: Knex, points: number, windowSeconds: number): Promise<TokenRateLimiter> {
    const options = { keyPrefix: 'token', points, duration: windowSeconds };
    if (!isPostgres(db)) return new TokenRateLimiter(new RateLimiterMemory(options), points, windowSeconds);
    // Migration 051 made the table: instances starting together raced on the library's CREATE.
    const limiter = new RateLimiterPostgres({ ...options, storeClient: db, storeType: 'knex', tableName: 'token_rate_limits', tableCreated: true, clearExpiredByTimeout: false });
    return new TokenRateLimiter(limiter, points, windowSeconds);
  }

  async consume(ip: string): Promise<RateLimitVerdict> {
    try {
      const used = await this.limiter.consume(ip);
      return { allowed: true, retryAfterSeconds: 0, remaining: Math.max(0, used.remainingPoints), resetSeconds: Math.max(0, Math.ceil(used.msBeforeNext / 1000)) };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        const wait = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        return { allowed: false, retryAfterSeconds: wait, remaining: 0, resetSeconds: wait };
      }
      throw rejection;
    }
  }
}
