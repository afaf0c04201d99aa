// The service as its own process, started exactly like `npm start` (the esbuild bundle
// server/dist/main.js), so the load generator in this process never shares its event loop or
// its CPU time accounting.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { freePort } from './ports.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const NODE_WITH_TSX = ['--import', 'tsx', '--conditions=ofctx-source'];

/** SIGTERM (a graceful stop, which also lets --cpu-prof write its profile), SIGKILL after 30 s. */
export async function stopGracefully(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

let built: Promise<void> | undefined;

/** Builds server/dist once per benchmark run, as `npm start` does before it starts. */
function bundleBuilt(): Promise<void> {
  built ??= (async () => {
    const child = spawn(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT, stdio: 'inherit' });
    const [code] = (await once(child, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`scripts/build-server.mjs exited with ${code}`);
  })();
  return built;
}

/** The benchmarks ask for a few tokens per server; never let the limiter be the subject, nor the credential's request quota (the fairness benchmark sets its own). */
export const BENCH_LIMITS = { TOKEN_RATE_LIMIT: '1000', CLIENT_QUOTA_RATE: '10000000', CLIENT_QUOTA_BURST: '10000000' };

export interface ServiceProcess {
  url: string;
  pid: number;
  /** Milliseconds from spawn to the first 200 from /readyz. */
  readyAfterMs: number;
  stop(): Promise<void>;
}

export interface ServiceOptions {
  databaseUrl: string;
  env?: Record<string, string>;
  /** Writes a V8 CPU profile (.cpuprofile) into this folder when the service exits. */
  cpuProfileDir?: string;
  readyTimeoutMs?: number;
}

async function waitUntilReady(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode} before it was ready:\n${output()}`);
    try {
      const response = await fetch(`${url}/readyz`);
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`the service was not ready within ${timeoutMs} ms:\n${output()}`);
}

export async function startServiceProcess(options: ServiceOptions): Promise<ServiceProcess> {
  const port = await freePort();
  await bundleBuilt();
  const nodeArgs = ['--enable-source-maps', ...(options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : [])];
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, 'server/dist/main.js'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...BENCH_LIMITS,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  child.stderr!.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  const url = `http://127.0.0.1:${port}`;
  const exited = once(child, 'exit');
  try {
    await waitUntilReady(url, child, () => output, options.readyTimeoutMs ?? 30_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const readyAfterMs = performance.now() - started;
  return {
    url,
    pid: child.pid!,
    readyAfterMs,
    stop: () => stopGracefully(child, exited),
  };
}

/** A bearer token for a seeded credential, from the service's token endpoint. */
export async function accessToken(baseUrl: string, client: { client_id: string; client_secret: string }): Promise<string> {
  const response = await fetch(`${baseUrl}/api/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (response.status !== 200 || !body.access_token) throw new Error(`token request failed: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}
