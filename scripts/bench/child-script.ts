// A helper process of a benchmark (the bare baseline server, the service with an event
// source): started with tsx, ready once it prints a line, stopped with SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { NODE_WITH_TSX, ROOT, stopGracefully } from './service-process.js';

export interface ChildScript {
  child: ChildProcess;
  pid: number;
  /** The ready line's match (its groups carry what the script announced, such as its URL). */
  ready: RegExpMatchArray;
  stop(): Promise<void>;
}

export async function startChildScript(script: string, args: string[], options: { env?: Record<string, string>; ipc?: boolean; readyLine?: RegExp } = {}): Promise<ChildScript> {
  // BENCH_CPU_PROF_DIR: every helper process writes a V8 CPU profile there (NODE_OPTIONS may not carry --cpu-prof).
  const profile = process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`] : [];
  const child = spawn(process.execPath, [...NODE_WITH_TSX, ...profile, script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe', ...(options.ipc ? (['ipc'] as const) : [])],
  });
  let output = '';
  const exited = once(child, 'exit');
  const ready = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const readyLine = options.readyLine ?? /^ready$/m;
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = output.match(readyLine);
      if (match) resolve(match);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready:\n${output}`)));
  });
  return {
    child,
    pid: child.pid!,
    ready,
    stop: () => stopGracefully(child, exited),
  };
}
