// FHIR Bulk Data $export end to end against the running service: kick-off, polling and
// download, each line valid R4 and each file's count equal to the search's total; _since;
// DELETE; another client; unsupported parameters (strict and lenient); the per-client limit;
// a job left by a killed instance completed after a restart; expired files purged;
// Medplum's MedplumClient.bulkExport, unchanged, completing an export; and the kick-off's 503
// on PostgreSQL when BULK_EXPORT_DIR gives its files no folder.
import { expect } from 'chai';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MedplumClient } from '@medplum/core';
import { startTestService, ALL_SCOPES, type TestService } from '../../../test/support/service.js';
import { call, tokenFor, type TestResponse } from '../../../test/support/http.js';
import { contractCheckingFetch, assertMatchesContract } from '../../../test/support/contract.js';
import { checkR4 } from '../../../test/support/r4-validator.js';
import { applyOne, coverageResource } from '../../../test/support/resource-changes.js';
import { interchange271 } from '../../../test/support/x12.js';
import { diagnosticReport } from '../../../test/support/fhir-resources.js';
import type { IngestResource } from '../../src/ingest/change-set.js';
import { applyEligibility } from '../../src/x12/eligibility-applier.js';
import { claimJob, createJob } from '../../src/bulk/export-jobs.js';
import { runJob } from '../../src/bulk/export-runner.js';
import { purgeExpiredExports } from '../../src/bulk/export-worker.js';
import { EXPORT_TYPE_NAMES } from '../../src/bulk/export-request.js';
import { R4_TYPES } from '../../src/resources/r4/r4-types.js';
import { disclosuresOfResident } from '../../src/audit/disclosures.js';
import { residentOfRendered } from '../../src/bulk/export-file-disclosures.js';
import { loadConfig } from '../../src/config/config.js';
import { testDatabaseKind } from '../../../test/support/database.js';

const ASYNC = { prefer: 'respond-async', accept: 'application/fhir+json' };

/** A raw GET of an export file: NDJSON text, checked against the contract. */
async function download(url: string, token: string): Promise<{ status: number; text: string; type: string | null }> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  let body: unknown = text;
  if (response.status !== 200) body = JSON.parse(text);
  await assertMatchesContract('GET', url, response.status, response.headers, body);
  return { status: response.status, text, type: response.headers.get('content-type') };
}

describe('FHIR Bulk Data $export', function () {
  this.timeout(180_000);
  let service: TestService;
  let org: string;
  let facility: string;
  let token: string;
  let otherToken: string;
  let base: string;

  before(async () => {
    service = await startTestService({ env: { BULK_EXPORT_POLL_INTERVAL_MS: '50', BULK_EXPORT_PAGE_SIZE: '7' } });
    org = (await service.seed.org()).id;
    facility = (await service.seed.facility(org, 'export')).id;
    await service.seed.data({ orgId: org, facilityId: facility, residents: 6 });
    // A CoverageEligibilityResponse, as a 271 brings it.
    const coverage = await db()('coverage').where({ facility_id: facility }).first('id');
    await applyEligibility(db(), interchange271([{ trace: coverage.id, memberId: 'M', eligibility: ['1'], segments: ['EB*C*IND*30***23*1500*****Y'] }]), { orgId: org, facilityId: facility, actor: 'test' });
    // A lab DiagnosticReport, as an HL7 v2 ORU brings it.
    const resident = await db()('residents').where({ facility_id: facility }).first('id');
    await applyOne(db(), org, facility, diagnosticReport({ reference: `Patient/${resident.id}` }, 'EXPORT-1') as IngestResource);
    token = await tokenFor(service.baseUrl, await service.seed.client({ orgId: org, facilityIds: [facility], scopes: ALL_SCOPES }));
    otherToken = await tokenFor(service.baseUrl, await service.seed.client({ orgId: org, facilityIds: [facility], scopes: ALL_SCOPES, name: 'another partner' }));
    base = `/api/v1/fhir/R4/${org}/${facility}`;
  });
  after(async () => service?.close());

  const db = () => service.running.app.db;
  const kickOff = (path: string, options: { method?: string; token?: string; headers?: Record<string, string>; json?: unknown } = {}) =>
    call(service.baseUrl, options.method ?? 'GET', `${base}${path}`, { token: options.token ?? token, headers: { ...ASYNC, ...options.headers, ...(options.json ? { 'content-type': 'application/fhir+json' } : {}) }, ...(options.json ? { json: options.json } : {}) });
  const poll = (url: string, t = token) => call(service.baseUrl, 'GET', new URL(url).pathname, { token: t });

  /** Polls until the manifest; every 202 carries X-Progress and Retry-After. */
  async function manifestOf(accepted: TestResponse, t = token): Promise<any> {
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(202);
    const url = accepted.headers.get('content-location')!;
    for (let i = 0; i < 400; i++) {
      const status = await poll(url, t);
      if (status.status === 200) return status.body;
      expect(status.status).to.equal(202);
      expect(status.headers.get('x-progress')).to.be.a('string');
      expect(Number(status.headers.get('retry-after'))).to.be.greaterThan(0);
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('the export did not finish');
  }

  /** Every file of a manifest: its lines parsed, each valid R4 of the file's type. */
  async function filesOf(manifest: any, t = token): Promise<Record<string, any[]>> {
    const files: Record<string, any[]> = {};
    for (const output of manifest.output) {
      const file = await download(output.url, t);
      expect(file.status).to.equal(200);
      expect(file.type).to.match(/^application\/fhir\+ndjson/);
      expect(file.text.endsWith('\n')).to.equal(true);
      const resources = file.text.trimEnd().split('\n').map((line) => JSON.parse(line));
      for (const resource of resources) {
        expect(resource.resourceType).to.equal(output.type);
        expect(checkR4(resource)).to.deep.equal([]);
      }
      expect(resources).to.have.length(output.count);
      files[output.type] = resources;
    }
    return files;
  }

  const searchTotal = async (type: string) => (await call(service.baseUrl, 'GET', `${base}/${type}?_count=1`, { token, headers: { accept: 'application/fhir+json' } })).body.total as number;

  it('exports every type: 202 with Content-Location, polled to a manifest whose files hold the searches\' totals, each line valid R4, the files 0600', async () => {
    const manifest = await manifestOf(await kickOff('/$export'));
    expect(manifest).to.include({ requiresAccessToken: true });
    expect(manifest.request).to.equal(`${service.baseUrl}${base}/$export`);
    expect(manifest.error).to.deep.equal([]);
    expect(manifest.output.map((o: { type: string }) => o.type)).to.deep.equal([...EXPORT_TYPE_NAMES]);
    const files = await filesOf(manifest);
    for (const type of EXPORT_TYPE_NAMES) {
      expect(files[type]!.length, type).to.equal(await searchTotal(type));
      expect(new Set(files[type]!.map((r) => r.id)).size, `${type} ids`).to.equal(files[type]!.length);
    }
    const jobId = new URL(manifest.output[0].url).pathname.split('/').at(-2)!;
    // Audited like the searches: the kick-off, each poll and each download.
    const audited = await db()('audit_events').where({ org_id: org, facility_id: facility }).whereIn('operation', ['kickOffFhirExport', 'readFhirExportStatus', 'readFhirExportFile']).pluck('operation');
    expect(new Set(audited)).to.deep.equal(new Set(['kickOffFhirExport', 'readFhirExportStatus', 'readFhirExportFile']));
    // Announced by the CapabilityStatement.
    const statement = (await call(service.baseUrl, 'GET', `${base}/metadata`, { headers: { accept: 'application/fhir+json' } })).body;
    expect(checkR4(statement)).to.deep.equal([]);
    expect(statement.rest[0].operation.map((o: { name: string }) => o.name)).to.deep.equal(['export', 'patient-export', 'group-export']);
    expect(statement.instantiates).to.deep.equal(['http://hl7.org/fhir/uv/bulkdata/CapabilityStatement/bulk-data']);
    const dir = join(service.config.bulkExport.dir!, jobId);
    expect(statSync(join(dir, 'Observation.ndjson')).mode & 0o777).to.equal(0o600);
    expect(statSync(dir).mode & 0o777).to.equal(0o700);
  });

  it('puts each downloaded file in the accounting of disclosures of every resident in it, with the records of theirs it held (found by the tenancy walk: a download disclosed no one)', async () => {
    const manifest = await manifestOf(await kickOff('/$export'));
    const files = await filesOf(manifest);
    // Whose each line is, as the file says it: the record's resident_id in the database.
    const owners = new Map<string, string>();
    for (const type of EXPORT_TYPE_NAMES) {
      const table = R4_TYPES.find((r) => r.type === type)!.table;
      const rows: Array<{ id: string; resident_id?: string }> = await db()(table).whereIn('id', files[type]!.map((r) => r.id)).select('*');
      expect(rows, type).to.have.length(files[type]!.length);
      for (const row of rows) {
        const resident = type === 'Patient' ? row.id : row.resident_id!;
        expect(residentOfRendered(files[type]!.find((r) => r.id === row.id)), `${type}/${row.id}`).to.equal(resident);
        owners.set(`${type}/${row.id}`, resident);
      }
    }
    const resident = files.Patient![0].id as string;
    const downloads = (await disclosuresOfResident(db(), { orgId: org, residentId: resident })).filter((d) => d.operation === 'readFhirExportFile');
    // One record per file that held something of theirs, naming exactly those records.
    const expected = EXPORT_TYPE_NAMES.flatMap((type) => {
      const ids = files[type]!.filter((r) => owners.get(`${type}/${r.id}`) === resident).map((r) => r.id as string);
      return ids.length ? [{ type, ids: ids.sort() }] : [];
    });
    expect(expected.length).to.be.at.least(3);
    const got = downloads.map((d) => ({ type: d.resource_types[0]!, ids: [...d.resource_ids].sort() }));
    for (const file of expected) expect(got, file.type).to.deep.include(file);
    expect(downloads.every((d) => d.channel === 'api' && d.resource_types.length === 1)).to.equal(true);
  });

  it('_since exports only what changed after it; _type narrows the types; Patient/$export and the facility\'s Group answer alike, by POST with a Parameters body too', async () => {
    const first = await manifestOf(await kickOff('/Patient/$export?_type=Coverage,Patient&_outputFormat=application/fhir%2Bndjson'));
    expect(first.output.map((o: { type: string }) => o.type)).to.deep.equal(['Patient', 'Coverage']);
    // transactionTime is the organization's last write instant (every write before it committed), so a
    // `_since` of it misses no write that committed while this export was being read.
    expect(first.transactionTime).to.equal((await db()('ingest_clock').where({ org_id: org }).first('last_updated')).last_updated);
    const coverage = await db()('coverage').where({ facility_id: facility }).orderBy('seq').first('id');
    await new Promise((r) => setTimeout(r, 5));
    const group = { type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/coverage-class', code: 'group' }] }, value: 'GRP-SINCE' };
    const ownIdentifier = { system: 'https://ehr.example/fhir/sid/coverage', value: 'COV-SINCE' };
    await applyOne(db(), org, facility, await coverageResource(db(), coverage.id, { subscriberId: '*****SINCE', identifier: [ownIdentifier], class: [group] }), coverage.id);
    const since = await manifestOf(
      await kickOff(`/Group/${facility}/$export`, { method: 'POST', json: { resourceType: 'Parameters', parameter: [{ name: '_since', valueInstant: first.transactionTime }, { name: '_type', valueString: 'Coverage,Observation' }] } }),
    );
    expect(since.output.map((o: { type: string; count: number }) => [o.type, o.count])).to.deep.equal([['Coverage', 1]]);
    const files = await filesOf(since);
    // With the details a 270 needs and the Coverage's own identifiers (read for the page, as the search does).
    expect(files.Coverage![0]).to.deep.include({ id: coverage.id, subscriberId: '*****SINCE', identifier: [ownIdentifier], class: [group] });
    expect((await kickOff(`/Group/${org}/$export`)).status).to.equal(404);
  });

  it('refuses what the IG lets a server refuse: no Prefer: respond-async, an unknown type, a bad _since or format, and unsupported parameters unless handling=lenient', async () => {
    for (const [path, headers] of [
      ['/$export', { prefer: '' }],
      ['/$export?_type=Encounter', {}],
      ['/$export?_since=yesterday', {}],
      ['/$export?_outputFormat=text/csv', {}],
      ['/$export?_elements=id', {}],
      ['/$export?_typeFilter=Observation%3Fcode%3D1', { prefer: 'respond-async, handling=strict' }],
      ['/$export?_count=10', { prefer: 'respond-async, handling=lenient' }],
    ] as Array<[string, Record<string, string>]>) {
      const answer = await kickOff(path, { headers });
      expect(answer.status, path).to.equal(400);
      expect(answer.body.resourceType).to.equal('OperationOutcome');
    }
    const lenient = await manifestOf(await kickOff('/$export?_type=AllergyIntolerance&_elements=id', { headers: { prefer: 'respond-async, handling=lenient' } }));
    expect(lenient.output.map((o: { type: string }) => o.type)).to.deep.equal(['AllergyIntolerance']);
    expect(lenient.error).to.have.length(1);
    const outcome = JSON.parse((await download(lenient.error[0].url, token)).text);
    expect(outcome.resourceType).to.equal('OperationOutcome');
    expect(outcome.issue[0].diagnostics).to.contain('_elements');
  });

  it('checks each type\'s scope: a clinical-only token exports the clinical types, and asking for Patient is 403', async () => {
    const clinical = await tokenFor(service.baseUrl, await service.seed.client({ orgId: org, facilityIds: [facility], scopes: ['clinical.read'] }));
    expect((await kickOff('/$export?_type=Patient', { token: clinical })).status).to.equal(403);
    const manifest = await manifestOf(await kickOff('/$export', { token: clinical }), clinical);
    expect(manifest.output.map((o: { type: string }) => o.type)).to.deep.equal(['Observation', 'AllergyIntolerance', 'DiagnosticReport']);
  });

  it('belongs to its client: another client\'s status URL and files answer 404; DELETE cancels and removes the files', async () => {
    const manifest = await manifestOf(await kickOff('/$export?_type=Patient'));
    const statusPath = `${base}/bulk-status/${new URL(manifest.output[0].url).pathname.split('/').at(-2)}`;
    expect((await call(service.baseUrl, 'GET', statusPath, { token: otherToken })).status).to.equal(404);
    expect((await download(manifest.output[0].url, otherToken)).status).to.equal(404);
    expect((await call(service.baseUrl, 'DELETE', statusPath, { token: otherToken })).status).to.equal(404);
    const jobId = statusPath.split('/').at(-1)!;
    expect(existsSync(join(service.config.bulkExport.dir!, jobId))).to.equal(true);
    const cancelled = await call(service.baseUrl, 'DELETE', statusPath, { token });
    expect(cancelled.status).to.equal(202);
    expect(existsSync(join(service.config.bulkExport.dir!, jobId))).to.equal(false);
    expect((await call(service.baseUrl, 'GET', statusPath, { token })).status).to.equal(404);
    expect((await download(manifest.output[0].url, token)).status).to.equal(404);
  });

  it('purges expired exports with their files (BULK_EXPORT_TTL_HOURS)', async () => {
    const manifest = await manifestOf(await kickOff('/$export?_type=Patient'));
    const jobId = new URL(manifest.output[0].url).pathname.split('/').at(-2)!;
    expect(await purgeExpiredExports(db(), service.config.bulkExport.dir, 100)).to.equal(0);
    expect(await purgeExpiredExports(db(), service.config.bulkExport.dir, 100, Date.now() + 25 * 3_600_000)).to.be.greaterThan(0);
    expect(await db()('bulk_export_jobs').where({ id: jobId }).first()).to.equal(undefined);
    expect(existsSync(join(service.config.bulkExport.dir!, jobId))).to.equal(false);
  });

  it('completes an export for Medplum\'s MedplumClient.bulkExport, unchanged (POST kick-off, polling the status URL)', async () => {
    const medplum = new MedplumClient({ baseUrl: service.baseUrl, fhirUrlPath: base.slice(1), fetch: contractCheckingFetch });
    medplum.setAccessToken(token);
    const manifest = await medplum.bulkExport('', 'Observation,Coverage', undefined, { pollStatusOnAccepted: true, pollStatusPeriod: 50 });
    expect(manifest.output!.map((o: { type?: string }) => o.type)).to.deep.equal(['Coverage', 'Observation']);
    const files = await filesOf(manifest);
    expect(files.Observation!.length).to.equal(await searchTotal('Observation'));
  });
});

describe('FHIR Bulk Data $export jobs', function () {
  this.timeout(180_000);
  let first: TestService;
  let org: string;
  let facility: string;
  let token: string;
  let base: string;

  before(async () => {
    // An instance that runs no exports: its jobs wait, as a killed instance's would.
    first = await startTestService({ env: { BULK_EXPORT_WORKER: '0' } });
    org = (await first.seed.org()).id;
    facility = (await first.seed.facility(org, 'jobs')).id;
    await first.seed.data({ orgId: org, facilityId: facility, residents: 5 });
    token = await tokenFor(first.baseUrl, await first.seed.client({ orgId: org, facilityIds: [facility], scopes: ALL_SCOPES }));
    base = `/api/v1/fhir/R4/${org}/${facility}`;
  });
  after(async () => {
    await first?.close();
  });

  it(`answers 429 with Retry-After beyond BULK_EXPORT_MAX_JOBS_PER_CLIENT (2) running exports; a job a killed instance left half written completes after a restart, no line lost or repeated`, async () => {
    const start = () => call(first.baseUrl, 'GET', `${base}/$export?_type=Observation`, { token, headers: ASYNC });
    const accepted = [await start(), await start()];
    expect(accepted.map((a) => a.status)).to.deep.equal([202, 202]);
    const refused = await start();
    expect(refused.status).to.equal(429);
    expect(Number(refused.headers.get('retry-after'))).to.be.greaterThan(0);
    // One job run part way by an instance that then dies: two pages recorded, a third written
    // but not recorded (a torn tail), its lease left to run out.
    const db = first.running.app.db;
    const dir = first.config.bulkExport.dir!;
    const job = (await claimJob(db, 'killed-instance', 60_000))!;
    let pages = 0;
    expect(await runJob(db, job, { dir, owner: 'killed-instance', leaseMs: 60_000, pageSize: 10, ttlHours: 24, proceed: () => pages++ < 2 })).to.equal('stopped');
    const recorded = JSON.parse((await db('bulk_export_jobs').where({ id: job.id }).first()).progress);
    expect(recorded.n).to.equal(20);
    appendFileSync(join(dir, job.id, recorded.w), '{"resourceType":"Observation","id":"torn');
    await db('bulk_export_jobs').where({ id: job.id }).update({ lease_until: '2000-01-01T00:00:00.000Z' });

    // The restart: an instance with a worker, on the same database and export folder.
    const second = await startTestService({ database: first.database, env: { BULK_EXPORT_POLL_INTERVAL_MS: '50', BULK_EXPORT_DIR: dir } });
    try {
      const statusPath = new URL(accepted.find((a) => a.headers.get('content-location')!.endsWith(job.id))!.headers.get('content-location')!).pathname;
      let status: TestResponse | undefined;
      for (let i = 0; i < 400 && status?.status !== 200; i++) {
        status = await call(second.baseUrl, 'GET', statusPath, { token });
        if (status.status !== 200) await new Promise((r) => setTimeout(r, 25));
      }
      expect(status!.status).to.equal(200);
      const file = await download(status!.body.output[0].url, token);
      const ids = file.text.trimEnd().split('\n').map((line) => JSON.parse(line).id as string);
      const expected = await db('observations').where({ facility_id: facility }).orderBy('seq').pluck('id');
      expect(ids).to.deep.equal(expected);
      expect(status!.body.output[0].count).to.equal(expected.length);
    } finally {
      await second.close();
    }
  });

  it('an instance that stalled past its lease and wakes after another took its job over writes nothing into the export (found by the instance-churn reliability world)', async () => {
    const db = first.running.app.db;
    const dir = first.config.bulkExport.dir!;
    await db('bulk_export_jobs').delete(); // claimJob takes the oldest job: only this one
    const client = await first.seed.client({ orgId: org, facilityIds: [facility], scopes: ALL_SCOPES, name: 'stalled export' });
    const job = (await createJob(db, { orgId: org, facilityId: facility, clientId: client.client_id, requestUrl: `${base}/$export?_type=Observation`, types: ['Observation'], ignored: [], ttlHours: 24, maxJobsPerClient: 2 }))!;
    // Two pages recorded by a first owner, which then stops; its lease runs out.
    let pages = 0;
    expect(await runJob(db, (await claimJob(db, 'first-owner', 60_000))!, { dir, owner: 'first-owner', leaseMs: 60_000, pageSize: 10, ttlHours: 24, proceed: () => pages++ < 2 })).to.equal('stopped');
    await db('bulk_export_jobs').where({ id: job.id }).update({ lease_until: '2000-01-01T00:00:00.000Z' });
    // An instance claims it and stalls at once (its lease runs out before it does anything) ...
    const stalled = (await claimJob(db, 'stalled-owner', 1))!;
    expect(stalled.progress.n).to.equal(20);
    await new Promise((r) => setTimeout(r, 5));
    // ... another takes it over and finishes it ...
    const taker = (await claimJob(db, 'taking-owner', 60_000))!;
    expect(taker.id).to.equal(job.id);
    expect(await runJob(db, taker, { dir, owner: 'taking-owner', leaseMs: 60_000, pageSize: 10, ttlHours: 24, proceed: () => true })).to.equal('done');
    // ... then the stalled one wakes up and runs from what it claimed: it learns it lost the
    // job at its first record, having written (before this fix: into the finished file,
    // truncated back to its own start, so the pages the taker wrote after it were lost).
    expect(await runJob(db, stalled, { dir, owner: 'stalled-owner', leaseMs: 60_000, pageSize: 10, ttlHours: 24, proceed: () => true })).to.equal('lost');
    const done = await db('bulk_export_jobs').where({ id: job.id }).first();
    expect(done.status).to.equal('completed');
    const ids = readFileSync(join(dir, job.id, 'Observation.ndjson'), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line).id as string);
    const expected = await db('observations').where({ facility_id: facility }).orderBy('seq').pluck('id');
    expect(ids).to.deep.equal(expected);
    expect(JSON.parse(done.outputs)[0].count).to.equal(expected.length);
  });

  it('an owner that dies after recording a type as written, before putting its file in place, leaves the next owner to put it there, no line twice', async () => {
    const db = first.running.app.db;
    const dir = first.config.bulkExport.dir!;
    await db('bulk_export_jobs').delete();
    const client = await first.seed.client({ orgId: org, facilityIds: [facility], scopes: ALL_SCOPES, name: 'dies before the rename' });
    const job = (await createJob(db, { orgId: org, facilityId: facility, clientId: client.client_id, requestUrl: `${base}/$export?_type=Observation`, types: ['Observation'], ignored: [], ttlHours: 24, maxJobsPerClient: 2 }))!;
    // The rename into place fails (a folder where the file goes): the owner stops right there,
    // as one killed between the two would.
    mkdirSync(join(dir, job.id, 'Observation.ndjson', 'x'), { recursive: true });
    const dying = (await claimJob(db, 'dying-owner', 60_000))!;
    let failed: unknown;
    await runJob(db, dying, { dir, owner: 'dying-owner', leaseMs: 60_000, pageSize: 7, ttlHours: 24, proceed: () => true }).catch((error) => (failed = error));
    expect(failed, 'the rename failed').to.be.instanceOf(Error);
    expect(JSON.parse((await db('bulk_export_jobs').where({ id: job.id }).first()).progress).d).to.equal(true);
    rmSync(join(dir, job.id, 'Observation.ndjson'), { recursive: true });
    await db('bulk_export_jobs').where({ id: job.id }).update({ lease_until: '2000-01-01T00:00:00.000Z' });
    const taker = (await claimJob(db, 'taking-owner', 60_000))!;
    expect(await runJob(db, taker, { dir, owner: 'taking-owner', leaseMs: 60_000, pageSize: 7, ttlHours: 24, proceed: () => true })).to.equal('done');
    const ids = readFileSync(join(dir, job.id, 'Observation.ndjson'), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line).id as string);
    expect(ids).to.deep.equal(await db('observations').where({ facility_id: facility }).orderBy('seq').pluck('id'));
  });
});

describe('FHIR Bulk Data $export with no folder for its files', function () {
  this.timeout(60_000);

  it('has a folder beside the SQLite file, and none on PostgreSQL unless BULK_EXPORT_DIR names one (instances share no disk)', () => {
    expect(loadConfig({ DATABASE_URL: 'sqlite:/var/lib/ofctx/ofctx.db' }).bulkExport.dir).to.equal('/var/lib/ofctx/exports');
    expect(loadConfig({ DATABASE_URL: 'postgres://ofctx@db.internal/ofctx' }).bulkExport.dir).to.equal(undefined);
    expect(loadConfig({ DATABASE_URL: 'postgres://ofctx@db.internal/ofctx', BULK_EXPORT_DIR: '/srv/exports' }).bulkExport.dir).to.equal('/srv/exports');
  });

  it('answers the kick-off 503 with an OperationOutcome naming BULK_EXPORT_DIR on PostgreSQL without it, and records no job', async function () {
    if (testDatabaseKind !== 'postgres') this.skip();
    const service = await startTestService({ env: { BULK_EXPORT_DIR: '' } });
    try {
      const org = (await service.seed.org()).id;
      const facility = (await service.seed.facility(org, 'no export folder')).id;
      const token = await tokenFor(service.baseUrl, await service.seed.client({ orgId: org, facilityIds: [facility], scopes: ALL_SCOPES }));
      const answer = await call(service.baseUrl, 'GET', `/api/v1/fhir/R4/${org}/${facility}/$export`, { token, headers: ASYNC });
      expect(answer.status).to.equal(503);
      expect(answer.body.resourceType).to.equal('OperationOutcome');
      expect(JSON.stringify(answer.body.issue)).to.contain('BULK_EXPORT_DIR');
      expect(Number((await service.running.app.db('bulk_export_jobs').count({ n: '*' }).first())!.n)).to.equal(0);
    } finally {
      await service.close();
    }
  });
});
