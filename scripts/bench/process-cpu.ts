// CPU time per request: what a server costs the machine, whatever the load generator could
// push through it. Throughput ratios are a poor yardstick on a 2-core machine: the bare
// node:http server's rate moved from 13,600 to 32,700 req/s between two machines of this kind
// because autocannon, not the server, was its limit (issue 26). CPU time is what both sides
// pay on the same cores, so the cost per request compares them fairly.
//
// Read from /proc/<pid>/stat (user + system time of every thread of the process, in clock
// ticks), so worker threads count, and on PostgreSQL the backends serving the database count
// too: a server that moves its work into SQL must not look cheaper for it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

function clockTicksPerSecond(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** User + system CPU seconds a process has used so far, or undefined once it is gone (or off Linux). */
export function processCpuSeconds(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may hold spaces: count fields after its end.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 (utime) and 15 (stime) of proc(5); the list starts at field 3.
  return (Number(fields[11]) + Number(fields[12])) / clockTicksPerSecond();
}

/** Which processes a measurement charges: a fixed server process, plus any found when asked (database backends). */
export type CpuCharged = () => Promise<number[]> | number[];

/** A running tally of the CPU of the charged processes since `start`. */
export interface CpuMeter {
  /** CPU seconds the charged processes used since the meter started. */
  stop(): Promise<number>;
}

export async function startCpuMeter(charged: CpuCharged): Promise<CpuMeter> {
  const before = new Map<number, number>();
  for (const pid of await charged()) {
    const seconds = processCpuSeconds(pid);
    if (seconds !== undefined) before.set(pid, seconds);
  }
  return {
    async stop() {
      let used = 0;
      // A process first seen at the end (a backend opened during the load) counts from zero.
      for (const pid of new Set([...before.keys(), ...(await charged())])) {
        const seconds = processCpuSeconds(pid);
        if (seconds !== undefined) used += seconds - (before.get(pid) ?? 0);
      }
      return used;
    },
  };
}
