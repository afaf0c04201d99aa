// The delivery headers and case-insensitive lookup across the shapes headers come in:
// a Fetch Headers, Node's IncomingHttpHeaders, or any plain object.

export const SIGNATURE_HEADER = 'X-Service-Signature';
export const DELIVERY_ID_HEADER = 'X-Service-Delivery-Id';
export const EVENT_TYPE_HEADER = 'X-Service-Event-Type';
export const ATTEMPT_HEADER = 'X-Service-Attempt';
export const TIMESTAMP_HEADER = 'X-Service-Timestamp';

export type HeaderValue = string | readonly string[] | number | null | undefined;

/** A Fetch `Headers` (or anything with the same `get`). */
export interface HeadersGetter {
  get(name: string): string | null;
}

/** Request headers: a Fetch `Headers`, Node's `req.headers`, or a plain object with keys in any case. */
export type HeadersInput = HeadersGetter | { readonly [name: string]: HeaderValue };

/**
 * The value of header `name`: a string, an array when the header came more than once
 * (including under keys differing only in case), or undefined when absent.
 */
export function headerValue(headers: HeadersInput, name: string): string | string[] | undefined {
  if (headers === null || typeof headers !== 'object') {
    throw new TypeError('headers must be the request headers: a Fetch Headers, Node req.headers, or a plain object.');
  }
  if (isHeadersGetter(headers)) return headers.get(name) ?? undefined;
  const wanted = name.toLowerCase();
  const values: string[] = [];
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined || value === null) continue;
    if (Array.isArray(value)) values.push(...value.map(String));
    else values.push(String(value));
  }
  if (values.length === 0) return undefined;
  return values.length === 1 ? values[0] : values;
}

function isHeadersGetter(headers: HeadersInput): headers is HeadersGetter {
  return typeof (headers as Partial<HeadersGetter>).get === 'function';
}
