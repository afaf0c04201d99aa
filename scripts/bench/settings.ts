// The knobs of a benchmark run, from the environment: BENCH_DURATION (seconds per measured
// load, default 8), BENCH_ONLY (comma-separated benchmark names) and BENCH_SCALE_AUDIT_ROWS
// (the audit rows the scale benchmark generates, default 10^8: issue 43's six months).
export interface BenchSettings {
  durationSeconds: number;
  warmupSeconds: number;
  only: Set<string> | undefined;
  /** BENCH_PROFILE=0 skips the CPU-profiled pass of the list benchmark. */
  profile: boolean;
  /** Where the delivery benchmark creates (and drops) its PostgreSQL database. */
  postgresAdminUrl: string;
  /** BENCH_SCALE_AUDIT_ROWS: audit rows the scale benchmark generates in PostgreSQL (default 10^8). */
  scaleAuditRows: number;
  log(line: string): void;
}

export function settingsFromEnv(env: NodeJS.ProcessEnv): BenchSettings {
  const duration = Number(env.BENCH_DURATION ?? 8);
  if (!(duration > 0)) throw new Error(`BENCH_DURATION must be a number of seconds > 0, got "${env.BENCH_DURATION}"`);
  const scaleAuditRows = Number(env.BENCH_SCALE_AUDIT_ROWS ?? 1e8);
  if (!(Number.isInteger(scaleAuditRows) && scaleAuditRows >= 10_000)) throw new Error(`BENCH_SCALE_AUDIT_ROWS must be a whole number >= 10000 (1e8 is fine), got "${env.BENCH_SCALE_AUDIT_ROWS}"`);
  const only = env.BENCH_ONLY ? new Set(env.BENCH_ONLY.split(',').map((s) => s.trim()).filter(Boolean)) : undefined;
  return {
    durationSeconds: duration,
    // Enough for lazy validator compilation, V8 tiering and SQLite's page cache.
    warmupSeconds: Math.min(3, Math.max(1, duration / 4)),
    only,
    profile: env.BENCH_PROFILE !== '0',
    postgresAdminUrl: env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    scaleAuditRows,
    log: (line) => console.log(line),
  };
}
