// The rows of the identifier index (resource_identifiers) that hold any of some values in one
// organization, of one resource type or of any: how every road finds a record by a business
// identifier (an ingested change's match, a 271's TRN02, a partner's conditional reference).
//
// On PostgreSQL each value is sought on its own in the (org_id, value) index, whatever the
// statistics say. With `value in (...)` the plan depended on them: while they were missing or
// old (a new deployment's table until autovacuum's first analysis, while a feed fills it)
// PostgreSQL expected a handful of rows per organization, read every identifier of it and
// filtered them against the list, at every HL7 message: 1.2 ms at 5,400 identifiers, growing
// with the organization, against 0.22 ms this way (docs/benchmarks.md, feeds). `offset 0` keeps
// the lateral subquery a lookup per value (never flattened into a join the planner could
// hash), so one plan serves every list: the text is constant, and inside an ingest
// transaction it runs as a named statement (transaction-statements.ts). The values come as a
// JSON array (`json_array_elements_text`), not a text array: PostgreSQL counts the elements of
// an array it is given (`unnest` of a 1-value array: 1 row) but not of a parameter (10), so
// the plan with the values always looked cheaper than the one plan, and it planned the lookup
// again at every message (0.12 ms of each HL7 message's 0.14 ms lookup, 2026-11-28); a JSON
// array is estimated alike both ways, and the named statement keeps its one plan. SQLite plans
// its IN list with the values and seeks each one.
import type { Knex } from 'knex';
import { isPostgres } from './database.js';
import { statementTemplate, type CompiledStatement } from './statement-template.js';
import { transactionRowsOf } from './transaction-statements.js';

export interface IdentifierRow {
  resource_type: string;
  system: string;
  value: string;
  resource_id: string;
}

/** Values per statement (SQLite's IN list; PostgreSQL's array). */
const VALUES_PER_STATEMENT = 1000;

/** Bindings: the values as one JSON array, the organization, then the type when there is one. */
const pgByValue = (ofType: boolean) => `select i.resource_type, i.system, i.value, i.resource_id from json_array_elements_text(?::json) as v(value)
  cross join lateral (select resource_type, system, value, resource_id from resource_identifiers
    where org_id = ? and value = v.value${ofType ? ' and resource_type = ?' : ''} offset 0) as i`;
const PG_BY_VALUE = pgByValue(false);
const PG_BY_VALUE_OF_TYPE = pgByValue(true);
/** PostgreSQL's statement for distinct values, at most VALUES_PER_STATEMENT. */
const pgStatement = (orgId: string, values: readonly string[], type?: string): CompiledStatement =>
  type === undefined ? { sql: PG_BY_VALUE, bindings: [JSON.stringify(values), orgId] } : { sql: PG_BY_VALUE_OF_TYPE, bindings: [JSON.stringify(values), orgId, type] };

const sqliteByValue = statementTemplate((db: Knex, orgId: string, ...values: string[]) =>
  db('resource_identifiers').where({ org_id: orgId }).whereIn('value', values).select('resource_type', 'system', 'value', 'resource_id'),
);
const sqliteByValueOfType = statementTemplate((db: Knex, orgId: string, type: string, ...values: string[]) =>
  db('resource_identifiers').where({ org_id: orgId, resource_type: type }).whereIn('value', values).select('resource_type', 'system', 'value', 'resource_id'),
);

/**
 * PostgreSQL: the lookup of up to VALUES_PER_STATEMENT values as a statement of its own, to ride
 * with another (the HL7 applier's, with the ingest clock's tick: ingest-clock.ts).
 */
export function identifierRowsStatement(orgId: string, values: readonly string[]): CompiledStatement {
  const distinct = [...new Set(values)];
  if (distinct.length > VALUES_PER_STATEMENT) throw new Error(`at most ${VALUES_PER_STATEMENT} values per statement`);
  return pgStatement(orgId, distinct);
}

/**
 * The identifier rows of the organization holding any of `values` (of `type` when given), in
 * `db`'s transaction when it is one. Type and system are the caller's to check against what it
 * looked for: a value alone may name records of several systems.
 */
export async function identifierRowsByValue(db: Knex | Knex.Transaction, orgId: string, values: readonly string[], type?: string): Promise<IdentifierRow[]> {
  const rows: IdentifierRow[] = [];
  // A value asked twice would be probed twice on PostgreSQL, its rows answered twice.
  const distinct = [...new Set(values)];
  for (let i = 0; i < distinct.length; i += VALUES_PER_STATEMENT) {
    const slice = distinct.slice(i, i + VALUES_PER_STATEMENT);
    let statement: CompiledStatement;
    if (isPostgres(db)) statement = pgStatement(orgId, slice, type);
    else statement = type === undefined ? sqliteByValue(db, orgId, ...slice) : sqliteByValueOfType(db, orgId, type, ...slice);
    rows.push(...(await transactionRowsOf<IdentifierRow>(db as Knex.Transaction, statement)));
  }
  return rows;
}

/** Records per statement of identifierRowsOfRecords (a page is one). */
const RECORDS_PER_STATEMENT = 500;

/**
 * The identifier rows of some records of one type, in (record, system, value) order: a page's
 * identifiers as the R4 view renders them, the Coverages a 271 matched, a resident's listed
 * items. SQLite plans without statistics and read this from an identifier index's range of the
 * organization and type (every identifier of the type, for Observations one per HL7 result
 * ever received); a unary plus keeps those two terms off the indexes, so it probes the record
 * id's index for each record. PostgreSQL plans it from its statistics.
 */
export async function identifierRowsOfRecords(db: Knex | Knex.Transaction, orgId: string, type: string, ids: readonly string[]): Promise<Array<Omit<IdentifierRow, 'resource_type'>>> {
  const rows: Array<Omit<IdentifierRow, 'resource_type'>> = [];
  for (let i = 0; i < ids.length; i += RECORDS_PER_STATEMENT) {
    const query = db('resource_identifiers').whereIn('resource_id', ids.slice(i, i + RECORDS_PER_STATEMENT));
    if (isPostgres(db as Knex)) query.where({ org_id: orgId, resource_type: type });
    else query.whereRaw('+org_id = ? and +resource_type = ?', [orgId, type]);
    rows.push(...((await query.orderBy([{ column: 'resource_id' }, { column: 'system' }, { column: 'value' }]).select('resource_id', 'system', 'value')) as Array<Omit<IdentifierRow, 'resource_type'>>));
  }
  return rows;
}
