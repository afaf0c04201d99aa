// Conditional GET (RFC 9110 section 13.1.2): answers carry a weak ETag, and a request whose
// If-None-Match names it gets 304 with no body. A record's tag is its FHIR versionId
// (`W/"3"`), so a partner that keeps copies re-reads nothing unchanged; a list's tag is a
// digest of the page it would answer. Weak comparison, as If-None-Match requires.
import { createHash } from 'node:crypto';
import type { OperationRequest, OperationResult } from './operation.js';
import type { RenderedJson } from './rendered-json.js';

export function versionTag(versionId: number | string): string {
  return `W/"${versionId}"`;
}

export function digestTag(body: unknown): string {
  return `W/"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`;
}

/** digestTag of an answer already serialized: the same tag, from the bytes that are sent. */
export function renderedDigestTag(body: RenderedJson): string {
  return `W/"${createHash('sha256').update(body.bytes).digest('base64url').slice(0, 27)}"`;
}

function opaque(tag: string): string {
  return tag.trim().replace(/^W\//, '');
}

export function ifNoneMatchHits(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const tags = (Array.isArray(header) ? header.join(',') : header).split(',').map((t) => t.trim()).filter(Boolean);
  return tags.some((tag) => tag === '*' || opaque(tag) === opaque(etag));
}

/** The answer with its ETag, or 304 (no body, same ETag) when the caller already holds it. */
export function conditionalGet(request: Pick<OperationRequest, 'headers'>, etag: string, result: OperationResult): OperationResult {
  const headers = { ...result.headers, ETag: etag };
  if (ifNoneMatchHits(request.headers['if-none-match'], etag)) return { status: 304, body: undefined, headers, audit: result.audit };
  // Assigned, not `{ ...result, headers }`: a literal that redefines a copied field takes V8's slow path.
  const answer = { ...result };
  answer.headers = headers;
  return answer;
}
