// The real server as a child process, for tests that need to kill it (SIGKILL).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export { freePort } from '../../../../test/support/free-port.js';
import { freePort } from '../../../../test/support/free-port.js';

const NODE_ARGS = ['--import', 'tsx', '--conditions=ofctx-source'];

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  /** Sends the signal and waits for the process to exit. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Starts server/src/main.ts on a free port and waits for its "listening" log line. */
export async function spawnServer(env: Record<string, string>, timeoutMs = 30_000): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...NODE_ARGS, 'server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const started = Date.now();
  while (!output.includes('listening')) {
    if (child.exitCode !== null || Date.now() - started > timeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`the server did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
