// HIPAA-style accounting of access: every authenticated API operation records who (client),
// where (org, facility), what (operation, status) and which resource ids it returned.
// Ids only, never resource contents, secrets or tokens. A request that returned residents'
// records also says, in the same row, which resident each record belongs to and the
// credential's purpose of use (db/disclosure-encoding.ts); the accounting of disclosures
// finds those rows by resident through an index built behind the trail
// (audit/disclosure-index.ts, migration 028).
//
// Rows are group-committed: the rows of requests that finish in the same turn of the event
// loop share one commit, and each request is answered only once the commit holding its row
// is done. Same durability as a commit each, far fewer commits. A few commits may be in
// flight at once (PostgreSQL flushes concurrent commits together); when all are busy, rows
// wait for the next free one and go in together.
// Long texts (a list's record ids and residents) are stored once and named by their digest
// (audit/audit-texts.ts, migration 031): a polled page writes the same ones at every request.
import type { Knex } from 'knex';
import { nowIso } from '../db/clock.js';
import { preparedStatements } from '../db/prepared-statements.js';
import { DEFAULT_PURPOSE } from '../tenancy/access-policy.js';
import { encodeDisclosures, type Disclosure } from '../db/disclosure-encoding.js';
import { INTERNED_FROM, InternedTexts, POSTGRES_STORE_TEXTS, RESOLVED_RESOURCE_IDS, SQLITE_STORE_TEXT, TextsToStore } from './audit-texts.js';

const MAX_COMMITS_IN_FLIGHT = 4;

const COLUMNS = ['at', 'request_id', 'client_id', 'org_id', 'facility_id', 'operation', 'status', 'resource_ids', 'result_count', 'purpose', 'disclosures', 'resource_ids_digest', 'disclosures_digest'] as const;
const PG_TYPES = ['varchar', 'varchar', 'varchar', 'uuid', 'uuid', 'varchar', 'integer', 'text', 'integer', 'varchar', 'text', 'varchar', 'varchar'] as const;
/** Each long text's column, and the column of its digest when it is stored apart. */
const INTERNED_COLUMNS = [
  [COLUMNS.indexOf('resource_ids'), COLUMNS.indexOf('resource_ids_digest')],
  [COLUMNS.indexOf('disclosures'), COLUMNS.indexOf('disclosures_digest')],
] as const;

interface Pending {
  params: unknown[];
  discloses: boolean;
  resolve(): void;
  reject(error: unknown): void;
}

export interface AuditEntry {
  requestId: string;
  clientId: string | null;
  orgId: string | null;
  facilityId: string | null;
  operation: string;
  status: number;
  resourceIds: string[] | null;
  /** The credential's purpose of use, and the residents whose records the answer returned. */
  purpose?: string;
  disclosures?: Disclosure[] | null;
}

export interface AuditRecord {
  at: string;
  request_id: string;
  client_id: string | null;
  org_id: string | null;
  facility_id: string | null;
  operation: string;
  status: number;
  resource_ids: string[] | null;
  result_count: number;
}

export class AuditTrail {
  private pending: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;

  /** Told after a commit that held disclosures (the index behind the trail catches up). */
  onDisclosures: (() => void) | undefined;

  constructor(private readonly db: Knex) {}

  /** Resolves once the row is committed; rejects if its commit failed. */
  record(entry: AuditEntry): Promise<void> {
    const disclosures = entry.disclosures && entry.orgId && entry.clientId ? this.disclosuresText(entry.disclosures, entry.resourceIds) : null;
    const params = [
      nowIso(),
      entry.requestId,
      entry.clientId,
      entry.orgId,
      entry.facilityId,
      entry.operation,
      entry.status,
      entry.resourceIds ? this.idsText(entry.resourceIds) : null,
      entry.resourceIds?.length ?? 0,
      entry.purpose ?? (disclosures === null ? null : DEFAULT_PURPOSE),
      disclosures,
      null,
      null,
    ];
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ params, discloses: disclosures !== null, resolve, reject });
      // The rows of every request finishing in this turn of the event loop join the commit.
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          void this.commit();
        });
      }
    });
  }

  // The texts of arrays handed again: a kept page's answer gives the same arrays at every
  // request (http/rendered-pages.ts), encoded once (about 2 KB each for a page of 50).
  private readonly idsTexts = new WeakMap<readonly string[], string>();
  private readonly disclosureTexts = new WeakMap<readonly Disclosure[], { of: readonly string[] | null; text: string | null }>();

  private idsText(ids: readonly string[]): string {
    let text = this.idsTexts.get(ids);
    if (text === undefined) this.idsTexts.set(ids, (text = JSON.stringify(ids)));
    return text;
  }

  private disclosuresText(disclosures: readonly Disclosure[], resourceIds: readonly string[] | null): string | null {
    const kept = this.disclosureTexts.get(disclosures);
    if (kept !== undefined && kept.of === resourceIds) return kept.text;
    const text = encodeDisclosures(disclosures, resourceIds);
    this.disclosureTexts.set(disclosures, { of: resourceIds, text });
    return text;
  }

  private readonly interned = new InternedTexts();

  /** Moves the batch's long texts out of its rows: their digests in the rows, the texts to store beside. */
  private internTexts(batch: Pending[], now: number): TextsToStore {
    const toStore = new TextsToStore();
    for (const { params } of batch) {
      for (const [column, digestColumn] of INTERNED_COLUMNS) {
        const text = params[column] as string | null;
        if (text === null || text.length < INTERNED_FROM) continue;
        params[digestColumn] = this.interned.digestOf(text, now, toStore);
        params[column] = null;
      }
    }
    return toStore;
  }

  private async commit(): Promise<void> {
    if (this.inFlight >= MAX_COMMITS_IN_FLIGHT || this.pending.length === 0) return;
    this.inFlight++;
    const batch = this.pending;
    this.pending = [];
    try {
      const statements = preparedStatements(this.db);
      const now = Date.now();
      const toStore = this.internTexts(batch, now);
      const usedAt = nowIso(now);
      await statements.insertRows(
        'audit_events',
        COLUMNS,
        PG_TYPES,
        batch.map((p) => p.params),
        toStore.size === 0
          ? undefined
          : {
              sqlite: { sql: SQLITE_STORE_TEXT, rows: toStore.digests.map((digest, i) => [digest, toStore.texts[i], usedAt]) },
              postgres: { with: POSTGRES_STORE_TEXTS, params: [usedAt, toStore.digests, toStore.texts] },
            },
      );
      if (toStore.size > 0) this.interned.stored(toStore, now);
      for (const p of batch) p.resolve();
      if (batch.some((p) => p.discloses)) this.onDisclosures?.();
    } catch (error) {
      for (const p of batch) p.reject(error);
    } finally {
      this.inFlight--;
      // Rows that waited for a free commit go in now.
      if (this.pending.length > 0 && !this.scheduled) void this.commit();
    }
  }

  async query(filter: { orgId: string; clientId?: string; since?: string; limit?: number }): Promise<AuditRecord[]> {
    let q = this.db('audit_events as a')
      .leftJoin('audit_texts as rt', 'rt.digest', 'a.resource_ids_digest')
      .select('a.at', 'a.request_id', 'a.client_id', 'a.org_id', 'a.facility_id', 'a.operation', 'a.status', 'a.result_count', this.db.raw(RESOLVED_RESOURCE_IDS))
      .where('a.org_id', filter.orgId);
    if (filter.clientId) q = q.andWhere('a.client_id', filter.clientId);
    if (filter.since) q = q.andWhere('a.at', '>=', filter.since);
    const rows = await q.orderBy('a.seq').limit(filter.limit ?? 10_000);
    return rows.map((row: Record<string, unknown>) => ({
      at: row.at as string,
      request_id: row.request_id as string,
      client_id: (row.client_id as string | null) ?? null,
      org_id: (row.org_id as string | null) ?? null,
      facility_id: (row.facility_id as string | null) ?? null,
      operation: row.operation as string,
      status: Number(row.status),
      resource_ids: row.resource_ids ? (JSON.parse(row.resource_ids as string) as string[]) : null,
      result_count: Number(row.result_count),
    }));
  }
}
