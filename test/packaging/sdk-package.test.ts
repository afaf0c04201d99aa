// @ofctx/sdk as a partner gets it: packed with `npm pack` (its prepack build included),
// installed from the tarball into a scratch project outside the workspace (openapi-fetch
// from the registry), then imported from plain Node ESM and type-checked from TypeScript.
// The package is packed from a copy of sdk/ so the workspace's sdk/dist is left alone.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packWorkspacePackage, WORKSPACE as workspace, type PackedPackage } from '../support/packed-package.js';

const run = promisify(execFile);
const tsc = join(workspace, 'node_modules/typescript/bin/tsc');

const consumerEsm = `
import * as sdk from '@ofctx/sdk';
import * as contract from '@ofctx/sdk/contract';

const errors = ['OfctxError', 'AuthenticationError', 'PermissionError', 'NotFoundError', 'ValidationError',
  'RateLimitError', 'ConflictError', 'ServerError', 'ConnectionError', 'RequestAbortedError', 'OAuthError'];
for (const name of errors) {
  if (typeof sdk[name] !== 'function') throw new Error(name + ' is not exported');
  if (name !== 'OfctxError' && !(sdk[name].prototype instanceof sdk.OfctxError)) throw new Error(name + ' does not extend OfctxError');
}
if (typeof contract !== 'object') throw new Error('@ofctx/sdk/contract did not load');

// A whole call through dist/: token, then a page, with a fetch that answers like the API.
const seen = [];
const client = sdk.createClient({
  baseUrl: 'https://api.ofctx.example',
  clientId: 'ofx_ci_packaging',
  clientSecret: 'secret',
  fetch: async (request) => {
    seen.push(request.method + ' ' + new URL(request.url).pathname + ' ' + (request.headers.get('user-agent') ?? ''));
    return request.url.endsWith('/oauth/token')
      ? Response.json({ access_token: 'ofx_at_x', token_type: 'Bearer', expires_in: 3600, scope: 'residents.read' })
      : Response.json({ data: [], meta: { page: { page: 1, page_size: 50, total: 0 } }, error: null });
  },
});
const page = await client.facility('6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60', '0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21').residents.list();
console.log(JSON.stringify({ version: sdk.SDK_VERSION, page: page.page, seen }));
`;

const consumerTs = `
import { createClient, NotFoundError, OfctxError, type Page, type Patient, type WebhookSubscriptionCreated } from '@ofctx/sdk';
import type { paths } from '@ofctx/sdk/contract';

const client = createClient({ baseUrl: 'https://api.ofctx.example', clientId: 'id', clientSecret: 'secret', scopes: ['residents.read'] });
const facility = client.facility('org', 'facility');
export const page: Promise<Page<Patient>> = facility.residents.list({ pageSize: 10 });
export const created: Promise<WebhookSubscriptionCreated> = client.webhooks('org').register({ callbackUrl: 'https://x.example/h', eventTypes: ['resident.admitted'] });
export async function firstFamilyName(): Promise<string | undefined> {
  for await (const resident of facility.residents.all()) return resident.name[0]?.family;
  return undefined;
}
export function describeError(error: unknown): string {
  if (error instanceof NotFoundError) return 'missing ' + error.requestId;
  return error instanceof OfctxError ? error.code : 'unknown';
}
export type ResidentsList = paths['/api/v1/ofctx/{org_id}/{facility_id}/residents']['get'];
export const raw = client.raw.GET('/api/v1/ofctx/{org_id}/webhooks/event-types', { params: { path: { org_id: 'org' } } });
// @ts-expect-error residents cannot be filtered by resident
facility.residents.list({ residentId: 'r' });
// @ts-expect-error not an event type of the contract
client.webhooks('org').register({ callbackUrl: 'https://x.example/h', eventTypes: ['resident.exploded'] });
`;

describe('@ofctx/sdk package', function () {
  this.timeout(120_000);
  let scratch: string;
  let pack: PackedPackage;
  let project: string;

  before(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'ofctx-sdk-package-'));
    pack = await packWorkspacePackage('sdk', scratch);
    project = join(scratch, 'consumer');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', pack.tarball], { cwd: project });
  });

  after(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('holds dist/, README.md and LICENSE, and no sources or tests', () => {
    const paths = pack.files;
    expect(paths).to.include.members(['README.md', 'LICENSE', 'package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/generated/openapi.d.ts']);
    expect(paths.filter((p) => !p.startsWith('dist/') && !['README.md', 'LICENSE', 'package.json'].includes(p))).to.deep.equal([]);
    expect(paths.filter((p) => /(^|\/)(src|test)\//.test(p) || p.endsWith('.test.js'))).to.deep.equal([]);
  });

  it('is Apache-2.0, with the licence text, its repository and its homepage', () => {
    const installed = JSON.parse(readFileSync(join(project, 'node_modules/@ofctx/sdk/package.json'), 'utf8'));
    expect(installed.license).to.equal('Apache-2.0');
    expect(readFileSync(join(project, 'node_modules/@ofctx/sdk/LICENSE'), 'utf8')).to.match(/^\s*Apache License\s+Version 2\.0, January 2004/);
    expect(installed.repository).to.deep.include({ type: 'git', directory: 'sdk' });
    expect(installed.repository.url).to.match(/^git\+https:\/\/\S+\.git$/);
    expect(installed.homepage).to.match(/^https:\/\/\S+\/sdk#readme$/);
  });

  // jose (itself without dependencies) signs SMART Backend Services client assertions.
  it('depends on openapi-fetch and jose only', () => {
    const installed = JSON.parse(readFileSync(join(project, 'node_modules/@ofctx/sdk/package.json'), 'utf8'));
    expect(Object.keys(installed.dependencies ?? {}).sort()).to.deep.equal(['jose', 'openapi-fetch']);
    expect(installed.peerDependencies ?? {}).to.deep.equal({});
  });

  it('imports from plain Node ESM and makes a call through dist/', async () => {
    writeFileSync(join(project, 'consumer.mjs'), consumerEsm);
    const { stdout } = await run(process.execPath, ['consumer.mjs'], { cwd: project });
    const result = JSON.parse(stdout);
    expect(result.page).to.deep.equal({ page: 1, pageSize: 50, total: 0 });
    expect(result.seen).to.have.length(2);
    expect(result.seen[0]).to.match(/^POST \/api\/v1\/oauth\/token ofctx-sdk-node\/\d+\.\d+\.\d+ \(node v/);
    expect(result.seen[1]).to.match(/^GET \/api\/v1\/ofctx\/[^/]+\/[^/]+\/residents /);
  });

  it('type-checks a TypeScript consumer (NodeNext, strict) against the shipped declarations', async () => {
    writeFileSync(join(project, 'consumer.ts'), consumerTs);
    const args = [tsc, '--noEmit', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--strict', '--skipLibCheck', 'consumer.ts'];
    const outcome = await run(process.execPath, args, { cwd: project }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(outcome, 'tsc output').to.equal('');
  });
});
