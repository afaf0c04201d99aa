// Packs @ofctx/verifier as npm would publish it, installs the tarball in a scratch project
// outside the workspace, and uses it from plain Node ESM, from strict TypeScript (without
// @types/node), and through its bin. The package is packed from a copy of its sources, so
// that the workspace's verifier/dist is never touched and concurrent runs do not collide.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packWorkspacePackage, WORKSPACE as repoRoot, type PackedPackage } from '../support/packed-package.js';

const run = promisify(execFile);
const tscPath = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
const golden = (JSON.parse(readFileSync(join(repoRoot, 'test', 'vectors', 'signatures.json'), 'utf8')) as {
  cases: { name: string; secret: string; body_utf8?: string; signature: string }[];
}).cases.find((vector) => vector.name === 'golden delivery envelope')!;

/** Every file a path in package.json points at (outside the source-only condition). */
function packageTargets(manifest: Record<string, unknown>): string[] {
  const targets: string[] = [];
  const walk = (value: unknown, key?: string) => {
    if (key === 'ofctx-source') return;
    if (typeof value === 'string') targets.push(value.replace(/^\.\//, ''));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  walk(manifest.exports);
  walk(manifest.imports);
  walk(manifest.bin);
  walk(manifest.types);
  return targets;
}

describe('@ofctx/verifier package (npm pack, installed outside the workspace)', function () {
  this.timeout(120_000);

  let packDir: string;
  let consumerDir: string;
  let packed: PackedPackage;
  let manifest: Record<string, unknown>;

  before(async function () {
    this.timeout(120_000);
    packDir = mkdtempSync(join(tmpdir(), 'ofctx-verifier-pack-'));
    consumerDir = mkdtempSync(join(tmpdir(), 'ofctx-verifier-consumer-'));
    // prepack builds dist/ first, as on a real publish.
    packed = await packWorkspacePackage('verifier', packDir);
    const tarball = packed.tarball;
    writeFileSync(join(consumerDir, 'package.json'), JSON.stringify({ name: 'scratch-consumer', private: true, type: 'module' }));
    await run('npm', ['install', tarball, '--offline', '--no-audit', '--no-fund'], { cwd: consumerDir });
    manifest = JSON.parse(readFileSync(join(consumerDir, 'node_modules', '@ofctx', 'verifier', 'package.json'), 'utf8')) as Record<string, unknown>;
  });

  after(() => {
    for (const dir of [packDir, consumerDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is Apache-2.0, with the licence text, its repository and its homepage', () => {
    expect(manifest.license).to.equal('Apache-2.0');
    expect(readFileSync(join(consumerDir, 'node_modules', '@ofctx', 'verifier', 'LICENSE'), 'utf8')).to.match(/^\s*Apache License\s+Version 2\.0, January 2004/);
    expect(manifest.repository).to.deep.include({ type: 'git', directory: 'verifier' });
    expect((manifest.repository as { url: string }).url).to.match(/^git\+https:\/\/\S+\.git$/);
    expect(manifest.homepage).to.match(/^https:\/\/\S+\/verifier#readme$/);
  });

  it('has no dependencies, a Node engine, and both bins', () => {
    expect(manifest.dependencies ?? {}).to.deep.equal({});
    expect(manifest.engines).to.deep.equal({ node: '>=18' });
    expect(manifest.bin).to.deep.equal({ verifier: 'dist/cli.js', 'ofctx-verify': 'dist/cli.js' });
  });

  it('ships dist/, README.md and LICENSE, every file package.json points at, and no src/ or test/', () => {
    const paths = packed.files;
    expect(paths).to.include.members(['README.md', 'LICENSE', 'package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/cli.js']);
    expect(paths).to.include.members(packageTargets(manifest));
    expect(paths.filter((path) => !/^(dist\/|README\.md$|LICENSE$|package\.json$)/.test(path))).to.deep.equal([]);
    expect(paths.some((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))).to.equal(false);
    expect(readFileSync(join(consumerDir, 'node_modules', '@ofctx', 'verifier', 'dist', 'cli.js'), 'utf8')).to.match(/^#!\/usr\/bin\/env node\n/);
  });

  it('signs and verifies the golden vector from plain Node ESM', async () => {
    writeFileSync(
      join(consumerDir, 'consumer.mjs'),
      `import { sign, signAsync, verifySignature, verifyDelivery, verifyDeliveryAsync } from '@ofctx/verifier';
const [secret, body, signature] = JSON.parse(process.argv[2]);
const headers = { 'x-service-signature': signature, 'x-service-delivery-id': JSON.parse(body).delivery_id, 'x-service-event-type': JSON.parse(body).event_type };
console.log(JSON.stringify({
  sign: sign(body, secret),
  signWeb: await signAsync(body, secret, { crypto: 'web' }),
  valid: verifySignature(Buffer.from(body), signature, secret),
  tampered: verifySignature(body + ' ', signature, secret),
  delivery: verifyDelivery(body, headers, secret).delivery_id,
  deliveryWeb: (await verifyDeliveryAsync(body, new Headers(headers), secret, { crypto: 'web' })).delivery_id,
}));
`,
    );
    const { stdout } = await run(process.execPath, ['consumer.mjs', JSON.stringify([golden.secret, golden.body_utf8, golden.signature])], { cwd: consumerDir });
    expect(JSON.parse(stdout)).to.deep.equal({
      sign: golden.signature,
      signWeb: golden.signature,
      valid: true,
      tampered: false,
      delivery: '4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e',
      deliveryWeb: '4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e',
    });
  });

  it('type-checks from strict TypeScript (nodenext, no @types/node), with real types rather than any', async () => {
    writeFileSync(
      join(consumerDir, 'consumer.ts'),
      `import { createDeliveryDeduplicator, verifyDelivery, verifyFetchRequest, WebhookVerificationError, type EventDelivery, type EventType } from '@ofctx/verifier';
export async function handle(request: Request, secret: string): Promise<Response> {
  try {
    const delivery: EventDelivery = await verifyFetchRequest(request, secret, { toleranceSeconds: 300 });
    const type: EventType = delivery.event_type;
    const isNew: boolean = await createDeliveryDeduplicator().markIfNew(delivery.delivery_id);
    return new Response(isNew ? type : 'duplicate');
  } catch (error) {
    if (error instanceof WebhookVerificationError) return new Response(error.code, { status: error.status });
    throw error;
  }
}
export function parsed(secret: string): void {
  // @ts-expect-error a parsed object is not a raw body
  verifyDelivery({ api_version: 'v1' }, {}, secret);
  // @ts-expect-error the envelope's event_type is the contract's union, not any string
  const type: 'not.an.event' = verifyDelivery('{}', {}, secret).event_type;
  void type;
}
`,
    );
    await run(process.execPath, [tscPath, '--noEmit', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--strict', 'consumer.ts'], {
      cwd: consumerDir,
    });
  });

  it('runs the installed bin: exit 0 for the golden vector, 1 for a tampered body', async () => {
    const bin = join(consumerDir, 'node_modules', '.bin', 'ofctx-verify');
    const verify = (body: string) =>
      new Promise<number | null>((resolve, reject) => {
        const child = execFile(bin, ['verify', '--secret', golden.secret, '--signature', golden.signature], (error) => {
          if (error && typeof error.code !== 'number') reject(error);
        });
        child.on('exit', resolve);
        child.stdin!.end(body);
      });
    expect(await verify(golden.body_utf8!)).to.equal(0);
    expect(await verify(`${golden.body_utf8} `)).to.equal(1);
  });
});
