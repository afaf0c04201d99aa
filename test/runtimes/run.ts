// `npm run test:runtimes`: the SDK and the verifier where partners run them, each from its
// packed tarball (npm pack, installed into a scratch project outside the workspace):
//   Node 18, 20, 22 and 24, Bun and Deno: both packages, the SDK against a running service;
//   workerd (the Cloudflare Workers runtime): the verifier's Web Crypto build in a Worker;
//   Chromium (headless): the verifier in a page and in a dedicated Worker, and the SDK in a
//   page against the running service: same-origin works, cross-origin is refused (no CORS).
// The verifier runs the shared vectors (test/vectors/signatures.json). The runtimes come
// from the npm registry (scripts/runtime-matrix, `npm install --prefix scripts/runtime-matrix --no-save`),
// Chromium from Debian. RUNTIMES=node22,bun,... runs a subset. Exit 1 if anything fails or
// a selected runtime is missing.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { loadConfig } from '../../server/src/config/config.js';
import { createLogger } from '../../server/src/logging/logger.js';
import { startService } from '../../server/src/service.js';
import { createFacility, createOrganization } from '../../server/src/organizations/organizations.js';
import { createClient } from '../../server/src/auth/clients.js';
import { seedFacility } from '../../server/src/seed/synthetic-data.js';
import { chromiumAvailable, launchChromium } from '../support/chromium.js';
import { freePort } from '../support/free-port.js';
import { packWorkspacePackage, WORKSPACE } from '../support/packed-package.js';
import { RUNTIMES, type RuntimeName } from './runtimes.js';

const run = promisify(execFile);
const RUNTIMES_DIR = join(WORKSPACE, 'scripts/runtime-matrix/node_modules');
const ALL = RUNTIMES;

interface Checks {
  checks: number;
  failures: string[];
}
interface Row {
  runtime: string;
  version: string;
  part: string;
  result: Checks | { missing: string };
}

const selected = (process.env.RUNTIMES?.split(',').map((s) => s.trim()).filter(Boolean) ?? [...ALL]) as RuntimeName[];
const unknown = selected.filter((name) => !(ALL as readonly string[]).includes(name));
if (unknown.length) {
  console.error(`unknown runtime(s) ${unknown.join(', ')}; choose from ${ALL.join(', ')}`);
  process.exit(2);
}

const firstExisting = (...paths: string[]) => paths.find((p) => existsSync(p));
/** Where each runtime's binary is, as the registry packages lay them out. */
const binaries: Record<Exclude<RuntimeName, 'chromium'>, string | undefined> = {
  node18: firstExisting(join(RUNTIMES_DIR, 'node18/bin/node')),
  node20: process.version.startsWith('v20.') ? process.execPath : undefined,
  node22: firstExisting(join(RUNTIMES_DIR, 'node22/bin/node')),
  node24: firstExisting(join(RUNTIMES_DIR, 'node24/bin/node')),
  // bun's postinstall moves its platform binary into bun/bin; without install scripts it stays put.
  bun: firstExisting(join(RUNTIMES_DIR, 'bun/bin/bun.exe'), join(RUNTIMES_DIR, '@oven/bun-linux-x64/bin/bun'), join(RUNTIMES_DIR, '@oven/bun-linux-x64-baseline/bin/bun')),
  deno: firstExisting(join(RUNTIMES_DIR, 'deno/deno'), join(RUNTIMES_DIR, '@deno/linux-x64-glibc/deno')),
  workerd: firstExisting(join(RUNTIMES_DIR, '@cloudflare/workerd-linux-64/bin/workerd')),
};

const rows: Row[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'ofctx-runtimes-'));
const children = new Set<ChildProcess>();
const started = Date.now();

async function version(binary: string): Promise<string> {
  const first = (await run(binary, ['--version'])).stdout.trim().split('\n')[0]!;
  return first.replace(/^(deno \S+) .*$/, '$1');
}

function parseOutput(stdout: string): unknown {
  const line = stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(line);
}

try {
  // ---- the packages, as npm publishes them, installed outside the workspace -----------------
  const [sdkPack, verifierPack] = await Promise.all([packWorkspacePackage('sdk', scratch), packWorkspacePackage('verifier', scratch)]);
  const project = join(scratch, 'consumer');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'runtime-consumer', private: true, type: 'module' }));
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', sdkPack.tarball, verifierPack.tarball], { cwd: project });
  for (const probe of ['verifier-checks.mjs', 'sdk-checks.mjs', 'cli-entry.mjs', 'worker-entry.mjs', 'browser-entry.mjs']) {
    copyFileSync(new URL(`./probes/${probe}`, import.meta.url), join(project, probe));
  }
  copyFileSync(join(WORKSPACE, 'test/vectors/signatures.json'), join(project, 'vectors.json'));

  // ---- the running service the SDK talks to -------------------------------------------------
  const config = loadConfig({
    DATABASE_URL: `sqlite:${join(scratch, 'service.db')}`,
    PORT: '0',
    HOST: '127.0.0.1',
    WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_WORKER: '0',
    TOKEN_RATE_LIMIT: '1000',
  });
  const service = await startService(config, { logger: createLogger('warn') });
  try {
    const db = service.app.db;
    const org = await createOrganization(db, 'Runtime Matrix Org');
    const facility = await createFacility(db, org.id, 'Runtime Matrix Facility');
    const client = await createClient(db, { orgId: org.id, facilityIds: [facility.id], scopes: ['residents.read'], name: 'runtime matrix' });
    const residents = 5;
    await seedFacility(db, { orgId: org.id, facilityId: facility.id, residents, randomSeed: 7 });
    const target = { baseUrl: service.url, clientId: client.client_id, clientSecret: client.client_secret, orgId: org.id, facilityId: facility.id, residents };

    // ---- Node, Bun, Deno ---------------------------------------------------------------------
    const commandLine: Partial<Record<RuntimeName, (binary: string) => [string, string[], Record<string, string>]>> = {
      node18: (b) => [b, ['cli-entry.mjs'], {}],
      node20: (b) => [b, ['cli-entry.mjs'], {}],
      node22: (b) => [b, ['cli-entry.mjs'], {}],
      node24: (b) => [b, ['cli-entry.mjs'], {}],
      bun: (b) => [b, ['cli-entry.mjs'], {}],
      deno: (b) => [b, ['run', '--node-modules-dir=manual', '--allow-read', '--allow-net=127.0.0.1', '--allow-env', '--no-prompt', 'cli-entry.mjs'], { DENO_NO_UPDATE_CHECK: '1', DENO_DIR: join(scratch, 'deno-dir') }],
    };
    for (const name of selected) {
      const line = commandLine[name];
      if (!line) continue;
      const binary = binaries[name as keyof typeof binaries];
      if (!binary) {
        rows.push({ runtime: name, version: '-', part: 'verifier + sdk', result: { missing: 'not installed (npm install --prefix scripts/runtime-matrix --no-save)' } });
        continue;
      }
      const [file, args, env] = line(binary);
      const label = await version(binary);
      try {
        const { stdout } = await run(file, [...args, JSON.stringify(target)], { cwd: project, env: { ...process.env, NODE_OPTIONS: '', ...env }, timeout: 120_000 });
        const result = parseOutput(stdout) as { verifier: Checks; sdk: Checks };
        rows.push({ runtime: name, version: label, part: 'verifier (vectors, node:crypto and Web Crypto)', result: result.verifier });
        rows.push({ runtime: name, version: label, part: 'sdk (against the running service)', result: result.sdk });
      } catch (error) {
        const e = error as { stderr?: string; message: string };
        rows.push({ runtime: name, version: label, part: 'verifier + sdk', result: { checks: 1, failures: [`did not run: ${(e.stderr || e.message).slice(0, 1500)}`] } });
      }
    }

    // ---- workerd -------------------------------------------------------------------------------
    if (selected.includes('workerd')) {
      const binary = binaries.workerd;
      if (!binary) rows.push({ runtime: 'workerd', version: '-', part: 'verifier (Web Crypto)', result: { missing: 'not installed (npm install --prefix scripts/runtime-matrix --no-save)' } });
      else rows.push({ runtime: 'workerd', version: await version(binary), part: 'verifier in a module Worker (Web Crypto build)', result: await inWorkerd(binary, project) });
    }

    // ---- Chromium ------------------------------------------------------------------------------
    if (selected.includes('chromium')) {
      if (!chromiumAvailable()) rows.push({ runtime: 'chromium', version: '-', part: 'verifier + sdk', result: { missing: 'Debian chromium is not installed (apt-get install chromium)' } });
      else rows.push(...(await inChromium(project, target)));
    }
  } finally {
    await service.close();
  }
} catch (error) {
  console.error(error);
  rows.push({ runtime: 'matrix', version: '-', part: 'set-up', result: { checks: 1, failures: [(error as Error).message] } });
} finally {
  for (const child of children) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
}

async function inWorkerd(binary: string, project: string): Promise<Checks> {
  await build({
    absWorkingDir: project,
    entryPoints: ['worker-entry.mjs'],
    outfile: join(project, 'workerd/worker.js'),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    // What Cloudflare's tooling (wrangler) resolves with: the verifier's build without node:crypto.
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    logLevel: 'warning',
  });
  const port = await freePort();
  writeFileSync(
    join(project, 'workerd/config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .probe) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const probe :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed "worker.js") ],
  compatibilityDate = "2025-01-01",
);
`,
  );
  const child = spawn(binary, ['serve', 'config.capnp'], { cwd: join(project, 'workerd'), stdio: ['ignore', 'ignore', 'pipe'] });
  children.add(child);
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += c));
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        const answer = await fetch(`http://127.0.0.1:${port}/`);
        const body = (await answer.json()) as { verifier: Checks; hasNodeCrypto: boolean };
        return body.verifier;
      } catch (error) {
        if (child.exitCode !== null || Date.now() > deadline) return { checks: 1, failures: [`workerd did not answer: ${stderr.slice(0, 1500) || (error as Error).message}`] };
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    child.kill('SIGTERM');
    children.delete(child);
  }
}

async function inChromium(project: string, target: { baseUrl: string }): Promise<Row[]> {
  await build({ absWorkingDir: project, entryPoints: ['browser-entry.mjs'], outfile: join(project, 'browser/probe.js'), bundle: true, format: 'esm', platform: 'browser', logLevel: 'warning' });
  const bundle = readFileSync(join(project, 'browser/probe.js'), 'utf8');
  const html = '<!doctype html><meta charset="utf-8"><title>ofctx runtime probe</title><script type="module" src="probe.js"></script>';
  const browser = await launchChromium();
  const label = `Chromium ${browser.version()}`;
  const out: Row[] = [];
  try {
    const context = await browser.newContext();
    // The probe page is served under the service's own origin (and under another origin for the
    // CORS check) by interception; every API call goes to the real service.
    await context.route('**/__runtime-probe/**', (route) => {
      const path = new URL(route.request().url()).pathname;
      return path.endsWith('/probe.js')
        ? route.fulfill({ contentType: 'text/javascript', body: bundle })
        : route.fulfill({ contentType: 'text/html', body: html });
    });
    const page = await context.newPage();
    const origin = target.baseUrl;
    await page.goto(`${origin}/__runtime-probe/index.html`);
    await page.waitForFunction(() => 'probe' in globalThis);
    out.push({ runtime: 'chromium', version: label, part: 'verifier in a page (Web Crypto)', result: await page.evaluate(() => (globalThis as any).probe.page()) });
    out.push({ runtime: 'chromium', version: label, part: 'verifier in a dedicated Worker (Web Crypto)', result: await page.evaluate((url) => (globalThis as any).probe.worker(url), `${origin}/__runtime-probe/probe.js`) });
    out.push({ runtime: 'chromium', version: label, part: 'sdk in a page, same origin as the API', result: await page.evaluate((t) => (globalThis as any).probe.sdk(t), target) });

    // Another origin (localhost vs 127.0.0.1): the API sends no CORS headers, so the browser
    // refuses the SDK's calls, and the SDK says so as a ConnectionError.
    const foreign = await context.newPage();
    const foreignOrigin = origin.replace('127.0.0.1', 'localhost');
    await foreign.goto(`${foreignOrigin}/__runtime-probe/index.html`);
    await foreign.waitForFunction(() => 'probe' in globalThis);
    const outcome = (await foreign.evaluate((t) => (globalThis as any).probe.sdkOutcome(t), target)) as string;
    out.push({
      runtime: 'chromium',
      version: label,
      part: 'sdk from another origin is refused (the API sends no CORS headers)',
      result: { checks: 1, failures: /^ConnectionError: /.test(outcome) ? [] : [`expected a ConnectionError (CORS), got: ${outcome}`] },
    });
  } finally {
    await browser.close();
  }
  return out;
}

// ---- the report -------------------------------------------------------------------------------
let failed = 0;
console.log(`\n=== runtime matrix (${Math.round((Date.now() - started) / 1000)} s) ===`);
for (const row of rows) {
  const result = row.result;
  const status = 'missing' in result ? `MISSING: ${result.missing}` : result.failures.length ? `FAIL ${result.checks - result.failures.length}/${result.checks}` : `ok ${result.checks}/${result.checks}`;
  if ('missing' in result || result.failures.length) failed++;
  console.log(`${row.runtime.padEnd(9)} ${row.version.padEnd(22)} ${row.part.padEnd(68)} ${status}`);
  if (!('missing' in result)) for (const failure of result.failures.slice(0, 20)) console.log(`    - ${failure}`);
}
console.log(failed ? `\n${failed} runtime check group(s) failed` : '\nevery runtime check passed');
process.exit(failed ? 1 : 0);
