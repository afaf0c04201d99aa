// The long texts of audit rows, each stored once (migration 031): a partner polling a page
// writes the same record ids and the same disclosures request after request, and each went
// out of line at every insert (TOAST on PostgreSQL, overflow pages on SQLite). A text of
// INTERNED_FROM characters or more is written to audit_texts under its SHA-256 and the row
// names it by that digest; shorter ones stay in the row, where they cost nothing extra.
//
// A writer knows a text is stored once its commit said so; it then names it without writing
// it again for TEXT_CONFIRMED_FOR_MS, after which it writes it again (an upsert that moves the
// text's used_at). So every row naming a text was written less than that long after the
// text's used_at, and retention, which removes audit rows older than its cut-off, may remove
// a text whose used_at is older than the cut-off by more than that (with a day's margin for
// clocks): no row left can name it, and no writer still trusts it (retention/purge-expired.ts).
import { createHash } from 'node:crypto';

/** Shorter texts stay in the row: a row under about 2 KB is stored inline by both databases. */
export const INTERNED_FROM = 1_024;
export const TEXT_CONFIRMED_FOR_MS = 24 * 60 * 60 * 1000;
/** How much older than the audit cut-off a text's used_at must be before retention removes it. */
export const TEXT_RETAINED_BEYOND_MS = TEXT_CONFIRMED_FOR_MS + 24 * 60 * 60 * 1000;

/** Texts a writer knows are stored, most recently confirmed last; about 2 KB each. */
const KEPT_TEXTS = 4_096;

/** audit_events.resource_ids wherever it is (alias `a`, the stored text joined as `rt`). */
export const RESOLVED_RESOURCE_IDS = 'coalesce(a.resource_ids, rt.text) AS resource_ids';
/** Both long texts of audit_events, whichever place holds them (alias `a`). */
export const RESOLVED_TEXTS = `${RESOLVED_RESOURCE_IDS}, coalesce(a.disclosures, dt.text) AS disclosures`;
/** The joins RESOLVED_TEXTS reads. */
export const TEXTS_JOIN = 'LEFT JOIN audit_texts rt ON rt.digest = a.resource_ids_digest LEFT JOIN audit_texts dt ON dt.digest = a.disclosures_digest';
/**
 * The same as a lookup by key per row (PostgreSQL), for a statement whose rows PostgreSQL
 * cannot count ahead: estimating millions where there were a thousand, it hashed every stored
 * text, twice, for a report of one resident (0.55 s of 0.67 among 10^8 audit rows).
 */
export const TEXTS_LOOKED_UP = `LEFT JOIN LATERAL (SELECT t.text FROM audit_texts t WHERE t.digest = a.resource_ids_digest LIMIT 1) rt ON true
  LEFT JOIN LATERAL (SELECT t.text FROM audit_texts t WHERE t.digest = a.disclosures_digest LIMIT 1) dt ON true`;

/** A batch's texts to store (or confirm) with its rows, each once. */
export class TextsToStore {
  readonly digests: string[] = [];
  readonly texts: string[] = [];
  private readonly seen = new Set<string>();

  add(digest: string, text: string): void {
    if (this.seen.has(digest)) return;
    this.seen.add(digest);
    this.digests.push(digest);
    this.texts.push(text);
  }

  get size(): number {
    return this.digests.length;
  }
}

interface Known {
  digest: string;
  confirmedAt: number;
}

/** Which texts this process has stored lately, and the digest of each. */
export class InternedTexts {
  private readonly known = new Map<string, Known>();

  /** The digest naming `text`; added to `toStore` unless stored and confirmed lately. */
  digestOf(text: string, now: number, toStore: TextsToStore): string {
    const known = this.known.get(text);
    if (known !== undefined && now - known.confirmedAt < TEXT_CONFIRMED_FOR_MS) return known.digest;
    const digest = known?.digest ?? createHash('sha256').update(text).digest('hex');
    toStore.add(digest, text);
    return digest;
  }

  /** After the commit that stored (or confirmed) them. */
  stored(toStore: TextsToStore, at: number): void {
    for (let i = 0; i < toStore.size; i++) {
      const text = toStore.texts[i]!;
      this.known.delete(text);
      if (this.known.size >= KEPT_TEXTS) this.known.delete(this.known.keys().next().value!);
      this.known.set(text, { digest: toStore.digests[i]!, confirmedAt: at });
    }
  }
}

/** Stores or confirms one text (SQLite, and knex's path): used_at only moves forward. */
export const SQLITE_STORE_TEXT = `INSERT INTO audit_texts (digest, text, used_at) VALUES (?, ?, ?)
  ON CONFLICT (digest) DO UPDATE SET used_at = max(audit_texts.used_at, excluded.used_at)`;

/**
 * PostgreSQL: a batch's texts in front of its rows' INSERT, in the same statement (one round
 * trip; the rows and their texts commit together). Digests sorted, so two instances storing
 * the same texts lock them in one order. Parameters: used_at, the digests, the texts.
 */
export const POSTGRES_STORE_TEXTS = `WITH stored_texts AS (
    INSERT INTO audit_texts (digest, text, used_at)
    SELECT u.digest, u.text, ?::varchar FROM unnest(?::varchar[], ?::text[]) AS u(digest, text) ORDER BY u.digest
    ON CONFLICT (digest) DO UPDATE SET used_at = greatest(audit_texts.used_at, excluded.used_at)
  )`;
