// `ops source` and `ops import`, run as real processes: ingest credentials, Bundle and NDJSON
// files (and stdin), refusals naming the entry, and atomicity when the process is killed.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../../../test/support/database.js';
import { jsonOf, runOps } from '../../../test/support/ops-cli.js';
import { byMrn, coverage, patient, serviceRequest } from '../../../test/support/fhir-resources.js';
import { bundle } from '../../../test/support/ingest.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createFacility, createOrganization } from '../../src/organizations/organizations.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function opsProcess(args: string[], env: Record<string, string>) {
  return spawn(process.execPath, ['--import', 'tsx', '--conditions=ofctx-source', 'server/src/cli/ops.ts', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
}

describe('ops source and ops import', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let env: Record<string, string>;
  let db: Knex;
  let dir: string;
  let org: string;
  let facility: string;

  before(async () => {
    database = await createTestDatabase();
    env = { DATABASE_URL: database.url };
    db = openDatabase(database.url);
    await migrateToLatest(db);
    org = (await createOrganization(db, 'Import Org')).id;
    facility = (await createFacility(db, org, 'Import Facility')).id;
    dir = mkdtempSync(join(tmpdir(), 'ofctx-import-'));
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const residents = async () => Number((await db('residents').where({ org_id: org }).count({ n: '*' }).first())!.n);

  it('source create issues an ingest credential; source list and revoke cover it; client create refuses ingest.write', async () => {
    const created = jsonOf(await runOps(['source', 'create', '--org', org, '--facilities', facility, '--name', 'EHR', '--json'], env));
    expect(created).to.have.keys(['client_id', 'client_secret', 'org_id', 'facility_ids', 'scopes']);
    expect(created.scopes).to.deep.equal(['ingest.write']);
    const listed = jsonOf(await runOps(['source', 'list', '--org', org, '--json'], env));
    expect(listed.sources.map((s: { client_id: string }) => s.client_id)).to.deep.equal([created.client_id]);
    expect(JSON.stringify(listed)).to.not.include(created.client_secret);
    const revoked = jsonOf(await runOps(['source', 'revoke', created.client_id, '--json'], env));
    expect(revoked.status).to.equal('revoked');
    const refused = await runOps(['client', 'create', '--org', org, '--facilities', facility, '--scopes', 'residents.read ingest.write', '--name', 'x', '--json'], env);
    expect(refused.code).to.equal(2);
    expect(refused.stderr).to.contain('source create');
  });

  it('imports an NDJSON file, and importing it again changes nothing', async () => {
    const path = file('export.ndjson', [patient('I-1'), patient('I-2'), coverage(byMrn('I-1'), 'IC-1'), { resourceType: 'Patient' }].map((r) => JSON.stringify(r)).join('\n'));
    const first = jsonOf(await runOps(['import', '--org', org, '--facility', facility, path, '--json'], env));
    expect(first).to.deep.include({ format: 'fhir-ndjson', created: 3, updated: 0, unchanged: 0, rejected_count: 1, events: 3 });
    expect(first.rejected[0].at).to.equal('line 4');
    const again = jsonOf(await runOps(['import', '--org', org, '--facility', facility, path, '--json'], env));
    expect(again).to.deep.include({ created: 0, unchanged: 3, events: 0 });
    const audit = jsonOf(await runOps(['audit', 'writes', '--org', org, '--actor', 'ops-cli', '--json'], env));
    expect(audit.writes.map((w: { resource_type: string; outcome: string; version_id: number }) => [w.resource_type, w.outcome, w.version_id])).to.deep.equal([
      ['Patient', 'created', 1],
      ['Patient', 'created', 1],
      ['Coverage', 'created', 1],
    ]);
  });

  it('on PostgreSQL, analyzes what it filled, so partners\' lists are planned from statistics at once, not a minute later', async function () {
    if (testDatabaseKind !== 'postgres') this.skip();
    // last_analyze is set by an ANALYZE statement only, never by autovacuum (last_autoanalyze).
    const analyzed = async () => (await db('pg_stat_user_tables').whereIn('relname', ['residents', 'coverage', 'resource_identifiers']).whereNotNull('last_analyze').pluck('relname')) as string[];
    const before = (await db('pg_stat_user_tables').where({ relname: 'coverage' }).first('analyze_count')) as { analyze_count: string };
    const path = file('analyzed.ndjson', [patient('A-1'), coverage(byMrn('A-1'), 'AC-1')].map((r) => JSON.stringify(r)).join('\n'));
    expect(jsonOf(await runOps(['import', '--org', org, '--facility', facility, path, '--json'], env))).to.deep.include({ created: 2 });
    expect((await analyzed()).sort()).to.deep.equal(['coverage', 'resource_identifiers', 'residents'].sort());
    const after = (await db('pg_stat_user_tables').where({ relname: 'coverage' }).first('analyze_count')) as { analyze_count: string };
    expect(Number(after.analyze_count)).to.equal(Number(before.analyze_count) + 1);
  });

  it('imports a pretty-printed Bundle from stdin', async () => {
    const child = opsProcess(['import', '--org', org, '--facility', facility, '-', '--json'], env);
    child.stdin.end(JSON.stringify(bundle('batch', [{ resource: patient('I-3') }]), null, 2));
    let stdout = '';
    child.stdout.on('data', (c) => (stdout += c));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).to.equal(0);
    expect(JSON.parse(stdout)).to.deep.include({ format: 'fhir-bundle', created: 1 });
  });

  it('imports ServiceRequests, each new one a clinical.order.created', async () => {
    const path = file('orders.ndjson', [patient('I-6'), serviceRequest(byMrn('I-6'), 'IS-6'), serviceRequest(byMrn('I-6'), 'IS-7', { status: 'done' })].map((r) => JSON.stringify(r)).join('\n'));
    const run = jsonOf(await runOps(['import', '--org', org, '--facility', facility, path, '--json'], env));
    expect(run).to.deep.include({ format: 'fhir-ndjson', created: 2, rejected_count: 1, events: 2 });
    expect(run.rejected[0].issue).to.contain('ServiceRequest.status');
    const orders = await db('service_requests').where({ org_id: org }).pluck('code');
    expect(orders).to.deep.equal(['24323-8']);
  });

  it('a refused transaction exits 1 naming the entry, and writes nothing', async () => {
    const before = await residents();
    const path = file('bad.json', JSON.stringify(bundle('transaction', [{ resource: patient('I-4') }, { resource: patient('I-5', { birthDate: '1941-13-01' }) }])));
    const run = await runOps(['import', '--org', org, '--facility', facility, path, '--json'], env);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.contain('Bundle.entry[1]');
    expect(await residents()).to.equal(before);
  });

  it('a file of no known format is a usage error', async () => {
    const run = await runOps(['import', '--org', org, '--facility', facility, file('x.txt', 'MSH|^~\\&|\n'), '--json'], env);
    expect(run.code).to.equal(2);
    expect(run.stderr).to.contain('cannot tell the format');
  });

  it('killing the process in the middle of a transaction import leaves all of it or none of it', async () => {
    const count = 3000;
    const entries = Array.from({ length: count }, (_, i) => [{ resource: patient(`K-${i}`) }, { resource: coverage(byMrn(`K-${i}`), `KC-${i}`) }]).flat();
    const path = file('big.json', JSON.stringify(bundle('transaction', entries)));
    for (const delay of [1500, 3000, 4500]) {
      const before = await residents();
      const child = opsProcess(['import', '--org', org, '--facility', facility, path, '--json'], env);
      const closed = new Promise((resolve) => child.on('close', resolve));
      await new Promise((resolve) => setTimeout(resolve, delay));
      child.kill('SIGKILL');
      await closed;
      const written = (await residents()) - before;
      expect([0, count], `after a kill at ${delay} ms`).to.include(written);
      const coverageWritten = Number((await db('resource_identifiers').where({ org_id: org, resource_type: 'Coverage' }).where('value', 'like', 'KC-%').count({ n: '*' }).first())!.n);
      expect(coverageWritten, 'coverage rows come with their residents').to.equal(written === 0 ? 0 : count);
      if (written === count) break;
    }
  });
});
