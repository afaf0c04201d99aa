// PostgreSQL's text and jsonb cannot hold U+0000 (SQLite can; both databases keep the same
// data). Input holding it is refused where it is read (holdsNul: openapi/nul-characters.ts,
// ingest/prepared-change.ts). What a store quotes from a sender (an X12 envelope's sender, an
// HL7 field, an error naming a bad element) is written with U+FFFD, the replacement character,
// in its place: the message is kept and its metadata readable, where the NUL would have failed
// the whole write.
const NUL = /\u0000/g;
const REPLACEMENT = '\uFFFD';

/** Whether any string of a JSON value (a key or a value) holds NUL: a walk, not a serialization. */
export function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value !== null && typeof value === 'object') {
    for (const key in value) if (key.includes('\u0000') || holdsNul((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

export function storableText(text: string): string;
export function storableText(text: string | null): string | null;
export function storableText(text: string | null): string | null {
  return text === null || !text.includes('\u0000') ? text : text.replace(NUL, REPLACEMENT);
}

/** JSON.stringify, with every string (keys too) made storable. */
export function storableJson(value: unknown): string {
  const text = JSON.stringify(value);
  // JSON writes a NUL as the escape \u0000: only then is there one to replace.
  if (!text.includes('\\u0000')) return text;
  return JSON.stringify(value, function (this: unknown, _key, item: unknown) {
    if (typeof item === 'string') return storableText(item);
    if (item !== null && typeof item === 'object' && !Array.isArray(item)) return Object.fromEntries(Object.entries(item).map(([k, v]) => [storableText(k), v]));
    return item;
  });
}
