// One measured load: autocannon in this process against a server in another, after a warm-up
// of the same request (validators compile on first use, V8 optimizes hot code, SQLite warms
// its page cache), with the server's memory sampled during the measured part.
import autocannon from 'autocannon';
import { sampleRss } from './rss-sampler.js';
import { startCpuMeter, type CpuCharged } from './process-cpu.js';

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  durationSeconds: number;
  warmupSeconds: number;
  connections?: number;
  /** The server's pid, to sample its RSS. */
  pid?: number;
  /** The processes whose CPU time the measured part charges to the server (its own, its database's backends). */
  cpu?: CpuCharged;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  requests: number;
  /** Errors, timeouts and non-2xx answers: any makes the figure invalid. */
  failures: number;
  rssPeakMiB?: number;
  rssMeanMiB?: number;
  /** User + system CPU time of the charged processes per request answered, in microseconds. */
  cpuUsPerRequest?: number;
}

/** Ten connections: enough to keep one Node process busy without queueing for long. */
export const DEFAULT_CONNECTIONS = 10;

export async function measureLoad(options: LoadOptions): Promise<LoadResult> {
  const base = { url: options.url, headers: options.headers ?? {}, connections: options.connections ?? DEFAULT_CONNECTIONS, pipelining: 1 };
  if (options.warmupSeconds > 0) await autocannon({ ...base, duration: options.warmupSeconds });
  const rss = options.pid === undefined ? undefined : sampleRss(options.pid);
  const cpu = options.cpu ? await startCpuMeter(options.cpu) : undefined;
  const result = await autocannon({ ...base, duration: options.durationSeconds });
  const cpuSeconds = await cpu?.stop();
  const memory = rss?.stop();
  const failures = result.errors + result.timeouts + result.non2xx;
  if (failures > 0) console.warn(`  ! ${options.url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    meanMs: result.latency.average,
    requests: result.requests.total,
    failures,
    ...(memory ? { rssPeakMiB: memory.peakMiB, rssMeanMiB: memory.meanMiB } : {}),
    ...(cpuSeconds !== undefined && result.requests.total > 0 ? { cpuUsPerRequest: (cpuSeconds * 1e6) / result.requests.total } : {}),
  };
}
