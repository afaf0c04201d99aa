// A token's granular scopes (auth/granular-scopes.ts) as SQL: the condition a row of a
// restricted type must meet, the same condition an R4 search of those parameters builds
// (resources/r4/search/search-query.ts tokenMatch), so a granular scope hides exactly what
// that search would not return. RecordFilter (record-visibility.ts) puts it beside the access
// policy's restriction in every read path's query; event-visibility.ts asks it per event type.
import type { GranularRestrictions } from '../auth/granular-scopes.js';
import { R4_TYPES, type R4Type } from '../resources/r4/r4-types.js';
import { tokenMatch } from '../resources/r4/search/search-query.js';
import type { SqlFragment } from './record-visibility.js';

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
  restricts(type: R4Type['type']): boolean {
    return this.restrictions[type] !== undefined;
  }

  /** The condition on rows of `table` under `alias`; undefined when that table's type is not restricted. */
  rows(table: string, alias: string = table): SqlFragment | undefined {
    const r4 = R4_TYPES.find((t) => t.table === table);
    return r4 ? this.rowsOf(r4, alias) : undefined;
  }

  rowsOf(r4: R4Type, alias: string): SqlFragment | undefined {
    const alternatives = this.restrictions[r4.type];
    if (alternatives === undefined) return undefined;
    if (alternatives.length === 0) return NOTHING;
    const bindings: unknown[] = [];
    const any = alternatives.map((restriction) => {
      const all = restriction.map((match) => {
        const { sql, bindings: values } = tokenMatch(this.postgres, r4, this.orgId, match.param, match.tokens, alias);
        bindings.push(...values);
        return `(${sql})`;
      });
      return all.length === 0 ? '1 = 1' : all.join(' and ');
    });
    return { sql: any.length === 1 ? any[0]! : any.map((c) => `(${c})`).join(' or '), bindings: bindings as SqlFragment['bindings'] };
  }
}
