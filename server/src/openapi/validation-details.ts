// Ajv errors -> the envelope's per-field details (`query.page_size: must be <= 200`).
import type { ErrorObject } from 'ajv';
import type { ErrorDetail } from '../errors/api-error.js';

const LOCATIONS: Record<string, string> = { path: 'path', query: 'query', header: 'header', requestBody: 'body' };

/** A JSON Pointer step as the key it names (RFC 6901: `~1` is `/`, `~0` is `~`). */
export function unescapePointer(part: string): string {
  return part.replace(/~1/g, '/').replace(/~0/g, '~');
}

function fieldOf(error: ErrorObject): string {
  const parts = error.instancePath.split('/').filter(Boolean).map(unescapePointer);
  if (error.keyword === 'additionalProperties') parts.push(String(error.params.additionalProperty));
  if (error.keyword === 'required') parts.push(String(error.params.missingProperty));
  // Request-body validators report paths from the body root; parameter validators from the request root.
  const head = parts[0] && LOCATIONS[parts[0]] ? LOCATIONS[parts[0]] : 'body';
  const rest = parts[0] && LOCATIONS[parts[0]] ? parts.slice(1) : parts;
  return [head, ...rest].join('.');
}

function issueOf(error: ErrorObject): string {
  if (error.keyword === 'additionalProperties') return 'is not a known parameter or field';
  if (error.keyword === 'required') return 'is required';
  if (error.keyword === 'enum') return `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
  return error.message ?? 'is invalid';
}

export function validationDetails(errors: ErrorObject[] | null | undefined): ErrorDetail[] {
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const error of errors ?? []) {
    const detail = { field: fieldOf(error), issue: issueOf(error) };
    const key = `${detail.field}\u0000${detail.issue}`;
    if (!seen.has(key)) {
      seen.add(key);
      details.push(detail);
    }
  }
  return details;
}
