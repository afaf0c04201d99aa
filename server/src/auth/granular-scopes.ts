// SMART granular scopes (App Launch 2.0 section 3.5.3.1): `system/<Type>.<rs>?<param>=<token>`
// restricts a token to the records of <Type> that the R4 search `<Type>?<param>=<token>` would
// match. What a token may see of each type is stored with it (access_tokens.restrictions) and
// turned into SQL by tenancy/granular-restriction.ts inside every read path's query.
// A restriction's parameters are the type's token search parameters of the R4 view
// (resources/r4/search/search-parameters.ts), so a granular scope means exactly the search a
// client could run: `category=vital-signs` is what `Observation?category=vital-signs` returns.
import { searchParameters, type SearchParameter } from '../resources/r4/search/search-parameters.js';
import type { R4Type } from '../resources/r4/r4-types.js';
import type { GranularRestrictions, Restriction, TokenMatch } from '../tenancy/granular-restrictions.js';

const MAX_VALUES = 20;

/** The search parameters a granular scope of `type` may use: the type's token parameters but `_id`. */
export function granularParameters(type: R4Type['type']): SearchParameter[] {
  return searchParameters(type).filter((p) => p.type === 'token' && p.name !== '_id');
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** `scope`'s query (after `?`) as a restriction on `type`, or why it is refused, with the fix. */
export function readRestriction(scope: string, type: R4Type['type'], query: string): Restriction | { refused: string } {
  const allowed = granularParameters(type);
  const names = allowed.map((p) => p.name).join(', ');
  const plain = scope.slice(0, scope.indexOf('?'));
  if (allowed.length === 0) return { refused: `${scope}: ${type} has no token search parameter to restrict it by; ask ${plain}` };
  if (query === '') return { refused: `${scope}: nothing follows ?; write ${plain}?<parameter>=<system>|<code> (${type} takes ${names}), or ${plain} for every ${type}` };
  const restriction: Restriction = [];
  for (const pair of query.split('&')) {
    const equals = pair.indexOf('=');
    const name = equals < 0 ? pair : pair.slice(0, equals);
    const raw = equals < 0 ? '' : pair.slice(equals + 1);
    if (name.includes(':')) return { refused: `${scope}: search modifiers (${name}) are not supported in granular scopes; write ${name.slice(0, name.indexOf(':'))}=<system>|<code>` };
    const parameter = searchParameters(type).find((p) => p.name === name);
    if (!parameter) return { refused: `${scope}: ${name} is not a search parameter of ${type} ofctx supports; a granular ${type} scope takes ${names}` };
    if (!allowed.includes(parameter)) return { refused: `${scope}: ${name} is a ${parameter.name === '_id' ? 'resource id' : parameter.type} parameter, and granular scopes take token parameters; ${type} takes ${names}` };
    const value = decoded(raw);
    if (value === undefined) return { refused: `${scope}: ${name}'s value is not valid percent-encoding; encode | as %7C or write it as is` };
    if (value === '') return { refused: `${scope}: ${name} has no value; write ${name}=<system>|<code> or ${name}=<code>` };
    const values = value.split(',');
    if (values.length > MAX_VALUES) return { refused: `${scope}: ${name} has more than ${MAX_VALUES} values; ask several granular scopes instead` };
    const tokens: TokenMatch[] = [];
    for (const one of values) {
      const bar = one.indexOf('|');
      const token: TokenMatch = bar < 0 ? { code: one } : { system: one.slice(0, bar), ...(one.slice(bar + 1) === '' ? {} : { code: one.slice(bar + 1) }) };
      if (one === '' || (token.system === '' && token.code === undefined)) return { refused: `${scope}: ${name} has an empty value; write ${name}=<system>|<code> or ${name}=<code>` };
      if (parameter.target.kind === 'boolean' && !(token.system === undefined && (token.code === 'true' || token.code === 'false'))) {
        return { refused: `${scope}: ${name} is true or false` };
      }
      tokens.push(token);
    }
    restriction.push({ param: name, tokens });
  }
  return restriction;
}

/** As stored in access_tokens.restrictions and bulk_export_jobs.restrictions (null: none). */
export function serializeRestrictions(restrictions: GranularRestrictions | null): string | null {
  return restrictions === null ? null : JSON.stringify(restrictions);
}

export function parseRestrictions(stored: unknown): GranularRestrictions | null {
  return typeof stored === 'string' && stored !== '' ? (JSON.parse(stored) as GranularRestrictions) : null;
}
