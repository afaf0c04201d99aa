// Runs an example exactly as its README says (`npm run -s example:NAME` runs this same
// command line), as a child process, with every answer it gets from the service checked
// against the contract (contract-checked-fetch.ts).
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CONTRACT_CHECK = fileURLToPath(new URL('./contract-checked-fetch.ts', import.meta.url));

export type ExampleName = 'partner-sync' | 'webhook-receiver' | 'register-webhook';

export interface ExampleRun {
  code: number;
  stdout: string;
  stderr: string;
}

function spawnExample(name: ExampleName, args: string[], env: Record<string, string>): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(process.execPath, ['--import', 'tsx', '--import', CONTRACT_CHECK, '--conditions=ofctx-source', `examples/${name}/main.ts`, ...args], {
    cwd: ROOT,
    // Only what the example documents, plus PATH: nothing of the test's own environment leaks in.
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs an example to completion. */
export async function runExample(name: ExampleName, args: string[], env: Record<string, string>): Promise<ExampleRun> {
  const child = spawnExample(name, args, env);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code: code ?? 1, stdout, stderr };
}

/** A long-running example (the receiver): its output so far, waiting for a line, stopping it. */
export interface RunningExample {
  output(): string;
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number>;
}

export function startExample(name: ExampleName, env: Record<string, string>): RunningExample {
  const child = spawnExample(name, [], env);
  let output = '';
  const waiters = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk;
    for (const check of waiters) check();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const closed = once(child, 'close').then(([code]) => (code as number | null) ?? 1);
  closed.then(() => {
    for (const check of waiters) check();
  });
  let exited = false;
  void closed.then(() => (exited = true));

  return {
    output: () => output,
    waitForLine(pattern, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => finish(new Error(`no line matching ${pattern} within ${timeoutMs} ms; output:\n${output}`)), timeoutMs);
        const finish = (error?: Error, match?: RegExpMatchArray) => {
          clearTimeout(timer);
          waiters.delete(check);
          if (error) reject(error);
          else resolve(match!);
        };
        const check = () => {
          const match = output.split('\n').map((line) => line.match(pattern)).find(Boolean);
          if (match) finish(undefined, match);
          else if (exited) finish(new Error(`${name} exited before printing a line matching ${pattern}; output:\n${output}`));
        };
        waiters.add(check);
        check();
      });
    },
    async stop() {
      if (!exited) child.kill('SIGTERM');
      return closed;
    },
  };
}

export { freePort } from '../../support/free-port.js';
