// Runs the real ops CLI. `runOps` calls its entry point (`runCli`, server/src/cli/ops.ts) in
// this process, one run at a time, with what it writes to stdout and stderr captured: the suite
// runs the CLI over a hundred times, and a process per run cost 1.2 s of CPU each (on every
// database and Node.js line). `runOpsProcess` runs it as operators do, as a child process: the
// esbuild bundle `npm run -s ops --` runs when the test runner built it (scripts/run-tests.mjs
// sets OFCTX_OPS_BUNDLE), else the sources under tsx; the CLI's own tests use it for what only
// a process shows (exit codes, one line of --json on a real stdout, the bundle itself).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

let queue: Promise<unknown> = Promise.resolve();

/** The CLI in this process (one run at a time), its output captured. */
export function runOps(args: string[], env: Record<string, string>): Promise<CliRun> {
  const run = queue.then(() => runInProcess(args, env));
  queue = run.catch(() => undefined);
  return run;
}

async function runInProcess(args: string[], env: Record<string, string>): Promise<CliRun> {
  const { runCli } = await import('../../server/src/cli/ops.js');
  let stdout = '';
  let stderr = '';
  const writes = { out: process.stdout.write, err: process.stderr.write };
  const capture = (append: (text: string) => void) =>
    ((chunk: string | Uint8Array, encoding?: unknown, done?: unknown) => {
      append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      const callback = typeof encoding === 'function' ? encoding : done;
      if (typeof callback === 'function') queueMicrotask(() => (callback as () => void)());
      return true;
    }) as typeof process.stdout.write;
  process.stdout.write = capture((text) => (stdout += text));
  process.stderr.write = capture((text) => (stderr += text));
  try {
    const code = await runCli(args, { ...process.env, ...env });
    return { code, stdout, stderr };
  } finally {
    process.stdout.write = writes.out;
    process.stderr.write = writes.err;
  }
}

/** The CLI as a child process, as operators run it. */
export function runOpsProcess(args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const entry = process.env.OFCTX_OPS_BUNDLE ? ['--enable-source-maps', process.env.OFCTX_OPS_BUNDLE] : ['--import', 'tsx', '--conditions=ofctx-source', 'server/src/cli/ops.ts'];
    const child = spawn(process.execPath, [...entry, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** The single JSON object a `--json` run printed; fails if stdout holds anything else. */
export function jsonOf(run: CliRun): any {
  if (run.code !== 0) throw new Error(`ops exited ${run.code}: ${run.stderr}`);
  const text = run.stdout.trim();
  if (text.split('\n').length !== 1) throw new Error(`--json printed more than one line: ${run.stdout}`);
  const value = JSON.parse(text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`--json printed no object: ${text}`);
  return value;
}
