// Request latency, one request at a time on one keep-alive connection, timed to the
// microsecond (autocannon's histogram rounds to whole milliseconds, too coarse for reads
// that take one or two). What the growth benchmark compares between data sizes.
import { Agent, request } from 'node:http';
import { percentile } from './stats.js';

export interface LatencyResult {
  requests: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
}

/** One GET on `agent`, its body read and dropped: its status (the callers time it). */
export function statusOf(url: URL, headers: Record<string, string>, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export async function measureLatency(options: { url: string; headers: Record<string, string>; durationSeconds: number; warmupSeconds: number }): Promise<LatencyResult> {
  const url = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const run = async (seconds: number) => {
      const samples: number[] = [];
      let failures = 0;
      const end = performance.now() + seconds * 1000;
      while (performance.now() < end) {
        const started = performance.now();
        const status = await statusOf(url, options.headers, agent);
        samples.push(performance.now() - started);
        if (status !== 200) failures += 1;
      }
      return { samples, failures };
    };
    await run(options.warmupSeconds);
    const { samples, failures } = await run(options.durationSeconds);
    if (failures > 0) console.warn(`  ! ${options.url}: ${failures} answers were not 200`);
    return {
      requests: samples.length,
      meanMs: samples.reduce((a, b) => a + b, 0) / samples.length,
      p50Ms: percentile(samples, 50),
      p99Ms: percentile(samples, 99),
      failures,
    };
  } finally {
    agent.destroy();
  }
}
