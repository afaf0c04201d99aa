// A token's granular scopes (auth/granular-scopes.ts) as SQL: the condition a row of a
// restricted type must meet, the same condition an R4 search of those parameters builds
// (resources/r4/search/search-query.ts tokenMatch, handed over as restrictable-types.ts), so a granular scope hides exactly what
// that search would not return. RecordFilter (record-visibility.ts) puts it beside the access
// policy's restriction in every read path's query; event-visibility.ts asks it per event type.
import type { SqlFragment } from './sql-fragment.js';
import { restrictableTypes } from './restrictable-types.js';
import type { GranularRestrictions } from './granular-restrictions.js';

const NOTHING: SqlFragment = { sql: '1 = 0', bindings: [] };

export class GranularRestriction {
  /** Tells restrictions apart (page caches keyed by what selects a page). */
  readonly key: string;

  constructor(
    readonly restrictions: GranularRestrictions,
    readonly orgId: string,
    readonly postgres: boolean,
  ) {
    this.key = JSON.stringify(restrictions);
  }

  /** True when rows of `type` are restricted (or hidden). */
  restricts(type: string): boolean {
    return this.restrictions[type] !== undefined;
  }

  /** The condition on rows of `table` under `alias`; undefined when that table's type is not restricted. */
  rows(table: string, alias: string = table): SqlFragment | undefined {
    const type = restrictableTypes().typeOf(table);
    return type ? this.rowsOf(type, alias) : undefined;
  }

  /** The condition on rows of R4 type `type` under `alias`; undefined when the type is not restricted. */
  rowsOf(type: string, alias: string): SqlFragment | undefined {
    const alternatives = this.restrictions[type];
    if (alternatives === undefined) return undefined;
    if (alternatives.length === 0) return NOTHING;
    const types = restrictableTypes();
    const bindings: unknown[] = [];
    const any = alternatives.map((restriction) => {
      const all = restriction.map((match) => {
        const { sql, bindings: values } = types.tokenMatch(this.postgres, type, this.orgId, match.param, match.tokens, alias);
        bindings.push(...values);
        return `(${sql})`;
      });
      return all.length === 0 ? '1 = 1' : all.join(' and ');
    });
    return { sql: any.length === 1 ? any[0]! : any.map((c) => `(${c})`).join(' or '), bindings: bindings as SqlFragment['bindings'] };
  }
}
