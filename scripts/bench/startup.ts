// Start-up time to ready: spawn the service on an already migrated database and time until
// /readyz answers 200 (median of five), against the runtime's own floor: `node -e 0`, and
// the same with tsx loaded (how the service is started), each until the process exits.
// A third line loads the service's modules without starting anything, to split the time
// between loading code and initializing (database, contract, validators).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../server/src/db/database.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { ROOT, startServiceProcess } from './service-process.js';
import type { BenchSettings } from './settings.js';
import { median } from './stats.js';

export const STARTUP_RUNS = 5;
export const STARTUP_LINES = ['node -e 0', 'build the bundle (npm start does this first)', 'service: spawn -> /readyz 200'] as const;
export type StartupLine = (typeof STARTUP_LINES)[number];

export interface StartupResult {
  runs: number;
  lines: Record<StartupLine, { medianMs: number; minMs: number; maxMs: number }>;
}

async function timeToExit(args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'ignore' });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited with ${code}`);
  return performance.now() - started;
}

export async function startupTime(settings: BenchSettings): Promise<StartupResult> {
  const dir = mkdtempSync(join(tmpdir(), 'ofctx-bench-startup-'));
  const databaseUrl = `sqlite:${join(dir, 'ofctx.db')}`;
  try {
    const db = openDatabase(databaseUrl);
    await migrateToLatest(db);
    await db.destroy();
    const measure: Record<StartupLine, () => Promise<number>> = {
      'node -e 0': () => timeToExit(['-e', '0']),
      'build the bundle (npm start does this first)': () => timeToExit(['scripts/build-server.mjs']),
      'service: spawn -> /readyz 200': async () => {
        const service = await startServiceProcess({ databaseUrl });
        await service.stop();
        return service.readyAfterMs;
      },
    };
    const lines = {} as StartupResult['lines'];
    for (const line of STARTUP_LINES) {
      settings.log(`  ${line}`);
      await measure[line](); // once unmeasured: the OS file cache and tsx's compile cache
      const samples: number[] = [];
      for (let i = 0; i < STARTUP_RUNS; i++) samples.push(await measure[line]());
      lines[line] = { medianMs: median(samples), minMs: Math.min(...samples), maxMs: Math.max(...samples) };
    }
    return { runs: STARTUP_RUNS, lines };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
