// What the figures were measured on: they mean nothing without it.
import { readFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  platform: string;
  date: string;
}

function cpuModel(): string {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((l) => l.startsWith('model name'));
    return line?.split(':')[1]?.trim() ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export function describeMachine(): Machine {
  return {
    // What `nproc` prints: the CPUs this process may run on.
    cpus: availableParallelism(),
    cpuModel: cpuModel(),
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
  };
}
