// A process's resident memory, read from /proc/<pid>/status (VmRSS) while a load runs, so
// the figure is the server's own and not the load generator's.
import { readFileSync } from 'node:fs';

export function rssMiB(pid: number): number | undefined {
  try {
    const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kib === undefined ? undefined : Number(kib) / 1024;
  } catch {
    return undefined;
  }
}

export interface RssSampling {
  stop(): { peakMiB: number; meanMiB: number } | undefined;
}

export function sampleRss(pid: number, everyMs = 250): RssSampling {
  const samples: number[] = [];
  const take = () => {
    const value = rssMiB(pid);
    if (value !== undefined) samples.push(value);
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      if (samples.length === 0) return undefined;
      return { peakMiB: Math.max(...samples), meanMiB: samples.reduce((a, b) => a + b, 0) / samples.length };
    },
  };
}
