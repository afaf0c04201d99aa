// Per-IP limit on the token endpoint, to blunt credential stuffing. On PostgreSQL the
// counters live in the shared database, so every instance enforces one limit together.
import type { Knex } from 'knex';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { isPostgres } from '../db/database.js';

export interface RateLimitVerdict {
  allowed: boolean;
  retryAfterSeconds: number;
}

export class TokenRateLimiter {
  private constructor(private readonly limiter: RateLimiterAbstract) {}

  static async create(db: Knex, points: number, windowSeconds: number): Promise<TokenRateLimiter> {
    const options = { keyPrefix: 'token', points, duration: windowSeconds };
    if (!isPostgres(db)) return new TokenRateLimiter(new RateLimiterMemory(options));
    const limiter = await new Promise<RateLimiterPostgres>((resolve, reject) => {
      const created: RateLimiterPostgres = new RateLimiterPostgres(
        { ...options, storeClient: db, storeType: 'knex', tableName: 'token_rate_limits', clearExpiredByTimeout: false },
        (error?: Error) => (error ? reject(error) : resolve(created)),
      );
    });
    return new TokenRateLimiter(limiter);
  }

  async consume(ip: string): Promise<RateLimitVerdict> {
    try {
      await this.limiter.consume(ip);
      return { allowed: true, retryAfterSeconds: 0 };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
      }
      throw rejection;
    }
  }
}
