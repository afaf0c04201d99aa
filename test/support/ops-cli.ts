// Runs the real ops CLI as a child process: the esbuild bundle `npm run -s ops --` runs when
// the test runner built it (scripts/run-tests.mjs sets OFCTX_OPS_BUNDLE: 1.2 s a run instead of
// 2.6 s under tsx, and the suite runs the CLI about a hundred times), else the sources under tsx.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runOps(args: string[], env: Record<string, string>): Promise<CliRun> {
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
