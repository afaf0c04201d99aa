// Service instances as real processes on one database, each in a slot with fixed HTTP and
// MLLP ports (as behind a load balancer: a killed instance's address refuses connections
// until its replacement listens there again). A slot's generation moves on every kill and
// every restart, so a failed request can be told apart: one to an instance killed while the
// request was open (or already down when it started) is expected and counted; any other is a
// fault of a live instance.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { ROOT, freePort } from '../../../server/test/webhooks/support/processes.js';

// The bundle `npm start` runs (scripts/build-server.mjs, built once per run): an instance
// restarted every few seconds on a busy two-core machine must not spend its time in tsx.
const NODE_ARGS = ['--enable-source-maps', 'server/dist/main.js'];
let built = false;
function buildOnce(): void {
  if (built) return;
  const result = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('scripts/build-server.mjs failed: the service bundle could not be built');
  built = true;
}
const OUTPUT_TAIL = 20_000;

export interface Slot {
  index: number;
  url: string;
  mllpPort: number;
  generation: number;
  up: boolean;
  /** Every pid this slot ran, in order (webhook worker ids name the pid). */
  pids: number[];
  child?: ChildProcess;
  exited?: Promise<void>;
  /** The tail of the current process's output. */
  output: string;
}

export class InstancePool {
  readonly slots: Slot[] = [];
  kills = 0;
  restarts = 0;
  /** Milliseconds from spawn to "listening", per (re)start. */
  readonly startMs: number[] = [];

  constructor(private readonly env: Record<string, string>) {}

  async start(count: number): Promise<void> {
    buildOnce();
    for (let i = 0; i < count; i++) {
      const slot: Slot = { index: i, url: `http://127.0.0.1:${await freePort()}`, mllpPort: await freePort(), generation: 0, up: false, pids: [], output: '' };
      this.slots.push(slot);
    }
    await Promise.all(this.slots.map((s) => this.spawn(s)));
  }

  /** Starts the slot's process on its ports and waits for its "listening" line (MLLP is up by then). */
  async spawn(slot: Slot, timeoutMs = 60_000): Promise<void> {
    const started = Date.now();
    const child = spawn(process.execPath, NODE_ARGS, {
      cwd: ROOT,
      env: { ...process.env, ...this.env, PORT: new URL(slot.url).port, HOST: '127.0.0.1', MLLP_PORT: String(slot.mllpPort), MLLP_HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let listening = false;
    slot.output = '';
    const take = (chunk: Buffer) => {
      const text = chunk.toString();
      if (!listening && text.includes('listening')) listening = true;
      slot.output = (slot.output + text).slice(-OUTPUT_TAIL);
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    slot.child = child;
    slot.exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    while (!listening) {
      if (child.exitCode !== null || Date.now() - started > timeoutMs) {
        child.kill('SIGKILL');
        throw new Error(`instance ${slot.index} did not start:\n${slot.output}`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    this.startMs.push(Date.now() - started);
    slot.pids.push(child.pid!);
    slot.generation++;
    slot.up = true;
  }

  async kill(slot: Slot): Promise<void> {
    slot.up = false;
    slot.generation++;
    this.kills++;
    slot.child?.kill('SIGKILL');
    await slot.exited;
  }

  async restart(slot: Slot): Promise<void> {
    await this.spawn(slot);
    this.restarts++;
  }

  live(): Slot[] {
    return this.slots.filter((s) => s.up);
  }

  /** A live slot at random (one is always up: at most one is killed at a time). */
  async pick(random: () => number): Promise<Slot> {
    for (;;) {
      const live = this.live();
      if (live.length > 0) return live[Math.floor(random() * live.length)]!;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** SIGTERM every live instance (a graceful stop), SIGKILL after 20 s. */
  async stopAll(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    await Promise.all(this.slots.map(async (s) => {
      s.up = false;
      if (!s.child || s.child.exitCode !== null || s.child.signalCode !== null) return;
      s.child.kill(signal);
      const timer = setTimeout(() => s.child?.kill('SIGKILL'), 20_000);
      await s.exited;
      clearTimeout(timer);
    }));
  }
}

/** A request's slot and generation when it started: was a failure the kill's doing? */
export function expectedFailure(slot: Slot, generationAtStart: number, upAtStart: boolean): boolean {
  return !upAtStart || slot.generation !== generationAtStart;
}

/** A network-level failure (refused, reset, closed early) rather than an answer or a broken promise. */
export function isConnectionFailure(error: unknown): boolean {
  const e = error as { name?: string; message?: string; code?: string; cause?: { code?: string; name?: string; message?: string } };
  if (e?.name === 'AssertionError' || e?.name === 'ContractViolation') return false;
  const codes = [e?.code, e?.cause?.code].filter(Boolean);
  if (codes.some((c) => ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED'].includes(c!))) return true;
  return /fetch failed|socket hang up|other side closed|connection closed/i.test(`${e?.message ?? ''} ${e?.cause?.message ?? ''}`);
}
