// The plans of selective searches: a search by identifier or name starts from the few rows
// its index names, not from a walk of every resident of the facility (which made a search by
// identifier 30 times slower than the plain list at 100,000 residents). The answers are the
// e2e tests' (test/e2e/us-core-search.test.ts); here, how the database finds them.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { startTestService, type TestService } from '../../../../../test/support/service.js';
import { testDatabaseKind } from '../../../../../test/support/database.js';
import { R4_TYPES } from '../../../../src/resources/r4/r4-types.js';
import { countStatement, matchingRows, pageStatement, searchPageAndTotal, type SearchScope, type SearchSql } from '../../../../src/resources/r4/search/search-query.js';
import { readSearch } from '../../../../src/resources/r4/search/search-request.js';

const patient = R4_TYPES.find((t) => t.type === 'Patient')!;

describe('the plan of an R4 search', function () {
  this.timeout(60_000);
  let service: TestService;
  let db: Knex;
  let scope: SearchScope;
  let resident: { id: string; family_name: string; birth_date: string };
  let identifier: { system: string; value: string };

  before(async () => {
    service = await startTestService();
    db = service.running.app.db;
    const orgId = (await service.seed.org()).id;
    const facilityId = (await service.seed.facility(orgId)).id;
    await service.seed.data({ orgId, facilityId, residents: 200, vitalRounds: 0 });
    scope = { orgId, facilityId };
    resident = await db('residents').where({ facility_id: facilityId }).orderBy('seq').offset(150).first('id', 'family_name', 'birth_date');
    identifier = await db('resource_identifiers').where({ resource_id: resident.id }).first('system', 'value');
  });
  after(async () => service?.close());

  /** The page of 10 and the count a search runs, as the service writes them. */
  const queries = (pairs: Array<[string, string]>) => {
    const search = readSearch(patient, [...pairs, ['_count', '10']], false);
    const where = matchingRows(db, patient, scope, search.clauses);
    return { page: pageStatement(patient, search, where, undefined), count: countStatement(patient, where) };
  };

  const rowsOf = async <Row>(statement: SearchSql): Promise<Row[]> => {
    const result = (await db.raw(statement.sql, statement.bindings as never[])) as Row[] | { rows: Row[] };
    return Array.isArray(result) ? result : result.rows;
  };

  /** SQLite's plan of a statement, one line per step. */
  async function sqlitePlan({ sql, bindings }: SearchSql): Promise<string[]> {
    return ((await db.raw(`explain query plan ${sql}`, bindings as never[])) as Array<{ detail: string }>).map((step) => step.detail);
  }

  it('finds a Patient by identifier from the identifier index, on SQLite without walking the facility', async () => {
    const { page, count } = queries([['identifier', `${identifier.system}|${identifier.value}`]]);
    expect((await rowsOf<{ id: string }>(page)).map((r: { id: string }) => r.id)).to.deep.equal([resident.id]);
    expect(Number((await rowsOf<{ total: number | string }>(count))[0]!.total)).to.equal(1);
    if (testDatabaseKind !== 'sqlite') return;
    for (const q of [page, count]) {
      const plan = (await sqlitePlan(q)).join('\n');
      expect(plan).to.match(/SEARCH residents USING INDEX residents_id_unique \(id=\?\)/);
      // The value index (migration 026) seeks all four columns and covers the record id.
      expect(plan).to.match(/resource_identifiers USING COVERING INDEX resource_identifiers_lookup \((?=[^)]*resource_type=\?)(?=[^)]*system=\?)(?=[^)]*value=\?)org_id=\?[^)]*\)/);
      expect(plan).to.not.match(/residents_facility/);
    }
  });

  it('finds Patients by name from the name index, on SQLite without walking the facility', async () => {
    const { page } = queries([['family', resident.family_name]]);
    const found = (await rowsOf<{ id: string }>(page)).map((r: { id: string }) => r.id);
    expect(found).to.include(resident.id);
    if (testDatabaseKind !== 'sqlite') return;
    const plan = (await sqlitePlan(page)).join('\n');
    expect(plan).to.match(/SEARCH residents USING INDEX residents_id_unique \(id=\?\)/);
    expect(plan).to.match(/search_strings USING COVERING INDEX search_strings_lookup/);
  });

  it('finds Patients by name and birth date from the birth-date index: a day beats a common family name', async () => {
    const { page, count } = queries([['name', resident.family_name], ['birthdate', resident.birth_date]]);
    expect((await rowsOf<{ id: string }>(page)).map((r: { id: string }) => r.id)).to.include(resident.id);
    expect(Number((await rowsOf<{ total: number | string }>(count))[0]!.total)).to.be.at.least(1);
    if (testDatabaseKind !== 'sqlite') return;
    for (const q of [page, count]) {
      const plan = (await sqlitePlan(q)).join('\n');
      expect(plan).to.match(/SEARCH residents USING INDEX residents_birth_date \(facility_id=\? AND birth_date>\? AND birth_date<\?\)/);
      // Each of the day's residents has its own names probed; no list of every name of the prefix is built.
      expect(plan).to.match(/search_strings EXISTS USING COVERING INDEX search_strings_resource_names \(resource_id=\? AND param=\? AND norm>\? AND norm<\?\)/);
      expect(plan).to.not.match(/LIST SUBQUERY/);
    }
  });

  it('keeps the plain list on the facility index, in insertion order', async () => {
    const { page } = queries([]);
    const rows = await rowsOf<{ facility_id: string; seq: number }>(page);
    expect(rows).to.have.length(11);
    expect(rows.every((r) => r.facility_id === scope.facilityId)).to.equal(true);
    if (testDatabaseKind !== 'sqlite') return;
    expect((await sqlitePlan(page)).join('\n')).to.match(/residents_facility_id_seq_index \(facility_id=\?\)/);
  });

  it('on PostgreSQL, answers the identifier subquery from its index alone', async function () {
    if (testDatabaseKind !== 'postgres') return this.skip();
    const { page } = queries([['identifier', `${identifier.system}|${identifier.value}`]]);
    const { sql, bindings } = page;
    // Too few rows here for PostgreSQL to prefer an index on its own: the question is whether
    // the index can answer the subquery without the table, not which plan 200 rows get.
    const plan = await db.transaction(async (trx) => {
      await trx.raw('set local enable_seqscan = off');
      await trx.raw('set local enable_bitmapscan = off');
      return ((await trx.raw(`explain ${sql}`, bindings as never[])) as { rows: Array<{ 'QUERY PLAN': string }> }).rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).to.match(/Index Only Scan using resource_identifiers_(lookup|system)/);
  });

  it('finds every Patient with an identifier of a system (`system|`), on SQLite from the index by system', async () => {
    const { page, count } = queries([['identifier', `${identifier.system}|`]]);
    const expected = Number((await db('resource_identifiers').where({ org_id: scope.orgId, resource_type: 'Patient', system: identifier.system }).count({ n: '*' }))[0]!.n);
    expect(expected).to.be.at.least(200);
    expect(Number((await rowsOf<{ total: number | string }>(count))[0]!.total)).to.equal(expected);
    expect(await rowsOf(page)).to.have.length(11);
    if (testDatabaseKind !== 'sqlite') return;
    // (organization, type, system, record id) on SQLite since migration 047: an HL7 result's
    // digest no longer lands at a random place of it (the value index serves every search naming a value).
    expect((await sqlitePlan(page)).join('\n')).to.match(/resource_identifiers USING COVERING INDEX resource_identifiers_system \(org_id=\? AND resource_type=\? AND system=\?\)/);
    const columns = (await db.raw(`select name from pragma_index_info('resource_identifiers_system') order by seqno`)) as Array<{ name: string }>;
    expect(columns.map((c) => c.name)).to.deep.equal(['org_id', 'resource_type', 'system', 'resource_id']);
  });

  it('answers the exact total whether the first page holds every match or the matches fill several pages', async () => {
    const expected = Number((await db('residents').where({ facility_id: scope.facilityId, gender: 'female' }).count({ n: '*' }))[0]!.n);
    expect(expected).to.be.within(4, 196);
    const of = (count: number) => readSearch(patient, [['gender', 'female'], ['_count', String(count)]], false);
    const whole = await searchPageAndTotal<{ seq: number }>(db, patient, scope, of(200), undefined);
    expect([whole.rows.length, whole.more, whole.total]).to.deep.equal([expected, false, expected]);
    const first = await searchPageAndTotal<{ seq: number }>(db, patient, scope, of(3), undefined);
    expect([first.rows.length, first.more, first.total]).to.deep.equal([3, true, expected]);
    const next = await searchPageAndTotal<{ seq: number }>(db, patient, scope, of(3), { seq: Number(first.rows[2]!.seq) });
    expect([next.rows.length, next.total]).to.deep.equal([3, expected]);
    const last = await searchPageAndTotal<{ seq: number }>(db, patient, scope, of(200), { seq: Number(first.rows[2]!.seq) });
    expect([last.rows.length, last.more, last.total]).to.deep.equal([expected - 3, false, expected]);
  });
});
