// `npm run docs:check`: the documentation holds together. Every relative link and #anchor in
// README.md and docs/**/*.md resolves (anchors as GitHub makes them from headings), and the
// shell blocks marked runnable (```sh runnable) run, in page order, one bash per page, against
// the service started on a fresh temporary SQLite database on a free port: `$BASE` is its
// origin and `DATABASE_URL` its database, so the ops CLI in a block acts on the same tenant.
// `--links` checks links only; `--verbose` prints what the blocks printed. Exits 1 on any broken link or failed block.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { anchors, isExternal, links, runnableBlocks } from './docs/markdown-links.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

const pages = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))];
const text = new Map(pages.map((page) => [page, readFileSync(page, 'utf8')]));
const anchorsOf = new Map<string, Set<string>>();
const anchorsIn = (file: string) => {
  if (!anchorsOf.has(file)) anchorsOf.set(file, anchors(text.get(file) ?? readFileSync(file, 'utf8')));
  return anchorsOf.get(file)!;
};

const broken: string[] = [];
let checked = 0;
for (const page of pages) {
  for (const { target, line } of links(text.get(page)!)) {
    if (isExternal(target)) continue;
    checked++;
    const hash = target.indexOf('#');
    const pathPart = decodeURI(hash < 0 ? target : target.slice(0, hash));
    const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
    const file = pathPart === '' ? page : pathPart.startsWith('/') ? join(root, pathPart) : resolve(dirname(page), pathPart);
    const where = `${relative(root, page)}:${line}`;
    if (!existsSync(file)) {
      broken.push(`${where}: ${target}: no such file`);
      continue;
    }
    if (anchor !== null && file.endsWith('.md') && statSync(file).isFile() && !anchorsIn(file).has(anchor)) {
      broken.push(`${where}: ${target}: no heading makes #${anchor} in ${relative(root, file)}`);
    }
  }
}
console.log(`links: ${checked} relative links in ${pages.length} pages, ${broken.length} broken`);
for (const line of broken) console.error(`  ${line}`);

let failedBlocks = 0;
if (!process.argv.includes('--links')) failedBlocks = await runRunnableBlocks();
process.exit(broken.length > 0 || failedBlocks > 0 ? 1 : 0);

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

async function waitUntilReady(base: string, service: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (service.exitCode !== null) throw new Error(`the service exited (${service.exitCode}) before it was ready`);
    const ready = await fetch(`${base}/readyz`).then((r) => r.ok, () => false);
    if (ready) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the service was not ready within 60 s');
}

async function runRunnableBlocks(): Promise<number> {
  const work = pages.map((page) => ({ page, blocks: runnableBlocks(text.get(page)!) })).filter((p) => p.blocks.length > 0);
  if (work.length === 0) return 0;
  const dir = mkdtempSync(join(tmpdir(), 'ofctx-docs-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    DATABASE_URL: `sqlite:${join(dir, 'ofctx.db')}`,
    BULK_EXPORT_DIR: join(dir, 'exports'),
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    BASE: base,
  };
  delete (env as Record<string, string | undefined>).WEBHOOK_ENCRYPTION_KEY;
  const build = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('building the service failed');
  const service = spawn(process.execPath, ['--enable-source-maps', 'server/dist/main.js'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  let failed = 0;
  try {
    await waitUntilReady(base, service);
    for (const { page, blocks } of work) {
      const name = relative(root, page);
      // One bash per page, so a block sees the variables the blocks before it set.
      const script = ['set -euo pipefail', ...blocks.flatMap((b) => [`OFCTX_DOCS_BLOCK='${name}:${b.line}'`, b.code])].join('\n');
      const run = spawnSync('bash', ['-c', `trap 'echo "runnable block $OFCTX_DOCS_BLOCK failed (exit $?)" >&2' ERR\n${script}`], { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
      if (run.status === 0) console.log(`runnable: ${name}: ${blocks.length} block(s) ran${process.argv.includes('--verbose') ? `\n${run.stdout}` : ''}`);
      else {
        failed++;
        console.error(`runnable: ${name} failed (exit ${run.status ?? run.signal})\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`);
      }
    }
  } finally {
    service.kill('SIGTERM');
    await new Promise((r) => (service.exitCode !== null ? r(null) : service.once('exit', r)));
    rmSync(dir, { recursive: true, force: true });
  }
  return failed;
}
