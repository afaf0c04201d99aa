// The name of a PostgreSQL named statement, from its text. pg keeps named statements per
// connection and refuses a name it already holds for another text, and several parts of one
// process may prepare on the same pooled connection (the hot statements, the varying ones,
// an ingest transaction's; and, where a runtime loads a module twice, two copies of one of
// them). A counter per part would hand out one name twice; a digest of the text cannot: the
// same text gets the same name everywhere, another text another name.
import { createHash } from 'node:crypto';

/** `prefix` (at most 30 characters) and 24 hex digits of the text's SHA-256: within PostgreSQL's 63-byte names. */
export function statementName(prefix: string, text: string): string {
  return `${prefix}_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
}
