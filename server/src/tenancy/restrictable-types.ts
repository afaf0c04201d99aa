// What a granular scope needs of the record types it restricts: each type's table, and the
// condition a token search of one of its parameters puts on its rows. The R4 view defines both
// (resources/r4/search/restrictable-r4-types.ts, above this layer) and hands them over when it
// is loaded (every module that reads through these rules imports it). A restricted token
// evaluated before then is refused with an error (never shown rows a restriction should have hidden).
import type { TokenMatch } from './granular-restrictions.js';

export interface RestrictableTypes {
  /** The table of an R4 type's records (`Observation` -> observations). */
  tableOf(type: string): string | undefined;
  /** The R4 type whose records a table holds, if it holds one. */
  typeOf(table: string): string | undefined;
  /** The condition that the row under `alias` matches any of `tokens` of its token parameter `param`. */
  tokenMatch(postgres: boolean, type: string, orgId: string, param: string, tokens: readonly TokenMatch[], alias: string): { sql: string; bindings: readonly unknown[] };
}

let types: RestrictableTypes | undefined;

/** Called once by the module that defines the types (resources/r4/search/restrictable-r4-types.ts). */
export function useRestrictableTypes(defined: RestrictableTypes): void {
  types = defined;
}

export function restrictableTypes(): RestrictableTypes {
  if (!types) throw new Error('granular scopes need the R4 view\'s types: import resources/r4/search/restrictable-r4-types.js');
  return types;
}
