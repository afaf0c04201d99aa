// A workspace package as npm would publish it: its publishable files copied to a scratch
// folder (with the base tsconfig and the workspace's node_modules for the build), then
// `npm pack`, whose prepack builds dist/. The workspace's own dist/ is never touched, and
// concurrent runs do not collide.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const WORKSPACE = fileURLToPath(new URL('../..', import.meta.url));

export interface PackedPackage {
  /** Absolute path of the .tgz. */
  tarball: string;
  /** What the tarball holds, as `npm pack --json` lists it. */
  files: string[];
}

export async function packWorkspacePackage(name: 'sdk' | 'verifier', scratch: string): Promise<PackedPackage> {
  const stage = join(scratch, `stage-${name}`);
  mkdirSync(join(stage, name), { recursive: true });
  cpSync(join(WORKSPACE, 'tsconfig.base.json'), join(stage, 'tsconfig.base.json'));
  for (const entry of ['package.json', 'README.md', 'LICENSE', 'tsconfig.build.json', 'src']) {
    if (existsSync(join(WORKSPACE, name, entry))) cpSync(join(WORKSPACE, name, entry), join(stage, name, entry), { recursive: true });
  }
  symlinkSync(join(WORKSPACE, 'node_modules'), join(stage, 'node_modules'), 'dir');
  const destination = join(scratch, 'tarballs');
  mkdirSync(destination, { recursive: true });
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', destination], { cwd: join(stage, name) });
  const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return { tarball: join(destination, packed!.filename), files: packed!.files.map((f) => f.path) };
}
