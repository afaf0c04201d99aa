// `ops audit archive --before DATE FILE`: the audit rows retention is about to remove, as
// gzip NDJSON with a SHA-256 beside it; patient data, so 0600 and never written over.
import { expect } from 'chai';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { jsonOf, runOps } from '../../../test/support/ops-cli.js';
import { isPostgres, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { ensurePartitions } from '../../src/db/history-partitions.js';
import { historyTable } from '../../src/db/history-tables.js';

describe('ops audit archive', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let db: Knex;
  let dir: string;

  before(async () => {
    database = await createTestDatabase();
    db = openDatabase(database.url);
    await migrateToLatest(db);
    dir = mkdtempSync(join(tmpdir(), 'ofctx-archive-'));
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the rows before the date as gzip NDJSON (texts and disclosures resolved), 0600, with its SHA-256, and never over a file', async () => {
    if (isPostgres(db)) await ensurePartitions(db, historyTable('audit_events')!, Date.now(), Date.parse('2021-01-01T00:00:00.000Z'));
    const orgId = randomUUID();
    const resident = randomUUID();
    const row = (at: string, requestId: string, discloses = false) => ({
      at,
      request_id: requestId,
      org_id: orgId,
      client_id: 'archive-client',
      operation: 'listResidents',
      status: 200,
      result_count: discloses ? 1 : 0,
      ...(discloses ? { resource_ids: JSON.stringify([resident]), purpose: 'TREAT', disclosures: JSON.stringify({ Patient: { [resident]: [0] } }) } : {}),
    });
    await db('audit_events').insert([
      row('2021-01-10T00:00:00.000Z', 'jan', true),
      row('2021-02-10T00:00:00.000Z', 'feb'),
      row('2021-03-02T00:00:00.000Z', 'march-early'),
      row('2021-03-20T00:00:00.000Z', 'march-late'),
      row('2021-04-10T00:00:00.000Z', 'april'),
    ]);
    const file = join(dir, 'audit-2021.ndjson.gz');
    const env = { DATABASE_URL: database.url };
    const report = jsonOf(await runOps(['audit', 'archive', '--before', '2021-03-07', file, '--json'], env));
    expect(report).to.include({ file, rows: 3, before: '2021-03-07T00:00:00.000Z', checksum_file: `${file}.sha256` });
    expect(statSync(file).mode & 0o777).to.equal(0o600);
    const bytes = readFileSync(file);
    expect(report.bytes).to.equal(bytes.length);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(report.sha256).to.equal(sha256);
    expect(readFileSync(`${file}.sha256`, 'utf8')).to.equal(`${sha256}  audit-2021.ndjson.gz\n`);
    const lines = gunzipSync(bytes).toString('utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.request_id)).to.deep.equal(['jan', 'feb', 'march-early']);
    expect(lines[0]).to.include({ at: '2021-01-10T00:00:00.000Z', org_id: orgId, client_id: 'archive-client', purpose: 'TREAT', status: 200 });
    expect(lines[0].resource_ids).to.deep.equal([resident]);
    expect(lines[0].disclosures).to.deep.equal([{ residentId: resident, resourceType: 'Patient', resourceIds: [resident] }]);
    // PostgreSQL: the months wholly before the date, which retention drops whole.
    if (isPostgres(db)) expect(report.partitions).to.deep.equal(['audit_events_p20210101', 'audit_events_p20210201']);
    else expect(report.partitions).to.deep.equal([]);

    const again = await runOps(['audit', 'archive', '--before', '2021-03-07', file, '--json'], env);
    expect(again.code).to.not.equal(0);
    expect(again.stderr).to.match(/EEXIST|exists/);
    expect(readFileSync(file).equals(bytes)).to.equal(true);

    const bad = await runOps(['audit', 'archive', '--before', 'last year', join(dir, 'x.gz')], env);
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.contain('--before must be an ISO 8601 date');
  });
});
