// What a token's SMART granular scopes (auth/granular-scopes.ts reads them) leave it of each
// R4 type, as stored with the token (access_tokens.restrictions) and an export job:
// granular-restriction.ts turns them into SQL.
/** One token value as FHIR search reads it: `system|code`, `code` (any system), `system|` (any code), `|code` (no system). */
export interface TokenMatch {
  system?: string;
  code?: string;
}

/** `param=v1,v2`: any of the values. */
export interface ParameterMatch {
  param: string;
  tokens: TokenMatch[];
}

/** One granular scope's query: every parameter matches (`a=x&b=y`). */
export type Restriction = ParameterMatch[];

/**
 * What a token sees of the types it does not see whole, by R4 type: the records matching any
 * of the restrictions (several granular scopes of one type are an OR); an empty list: none.
 * A type absent from the map is seen whole (as the token's API scopes allow).
 */
export type GranularRestrictions = Readonly<Record<string, readonly Restriction[]>>;
