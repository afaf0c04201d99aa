// Hands every request to openapi-backend and writes its OperationResult to Koa. Bodies are
// read only for operations that declare one, and only in a content type the contract lists.
import type { Middleware, Context } from 'koa';
import type { OpenAPIBackend, Request as RouteRequest } from 'openapi-backend';
import { ApiError } from '../errors/api-error.js';
import { OAuthError } from '../errors/oauth-error.js';
import { TOKEN_OPERATION } from '../errors/token-endpoint.js';
import type { OperationResult } from './operation.js';
import { JSON_CONTENT_TYPE, RenderedJson } from './rendered-json.js';

export const MAX_BODY_BYTES = 64 * 1024;

function bodyError(error: Error & { status?: number; type?: string }, operationId: string | undefined): Error {
  const tooLarge = error.status === 413 || error.type === 'entity.too.large';
  if (operationId === TOKEN_OPERATION) {
    return new OAuthError(
      'invalid_request',
      tooLarge ? `The request body exceeds ${MAX_BODY_BYTES} bytes.` : 'The form body could not be read.',
      { 'Cache-Control': 'no-store' },
      tooLarge ? 413 : 400,
    );
  }
  return tooLarge
    ? new ApiError('payload_too_large', `The request body exceeds ${MAX_BODY_BYTES} bytes.`)
    : new ApiError('invalid_body', 'The request body is not valid JSON.', [{ field: 'body', issue: 'is not valid JSON' }]);
}

// application/fhir+json: a Bulk Data kick-off's Parameters body. Built once, on the first request with a body: koa-body (zod, formidable) costs ~0.2 s of
// start-up, and most traffic is GETs.
let parser: Promise<Middleware> | undefined;
function bodyParser(): Promise<Middleware> {
  parser ??= import('koa-body').then(({ koaBody }) =>
    koaBody({ jsonLimit: MAX_BODY_BYTES, formLimit: MAX_BODY_BYTES, textLimit: MAX_BODY_BYTES, multipart: false, text: false, jsonStrict: true, jsonTypes: ['application/json', 'application/fhir+json'] }),
  );
  return parser;
}

async function readBody(ctx: Context, api: OpenAPIBackend, request: RouteRequest): Promise<unknown> {
  const operation = api.router.matchOperation(request);
  const content = operation?.requestBody && 'content' in operation.requestBody ? operation.requestBody.content : undefined;
  if (!operation || !content) return undefined;
  const types = Object.keys(content);
  // No body at all (no length and no chunks, or an explicit zero length): validation reports it.
  if (ctx.is() === null || ctx.request.length === 0) return undefined;
  if (!ctx.is(types)) {
    if (operation.operationId === TOKEN_OPERATION) {
      throw new OAuthError('invalid_request', 'Send the token request as application/x-www-form-urlencoded.', { 'Cache-Control': 'no-store' }, 415);
    }
    throw new ApiError('unsupported_media_type', `Send the body as ${types.join(' or ')}.`);
  }
  // The operation reads its own body, streamed (the ingest endpoint: NDJSON of any length,
  // Bundles up to their own limit); the contract marks it.
  if ((operation as { 'x-ofctx-streamed-body'?: boolean })['x-ofctx-streamed-body']) return undefined;
  const parse = await bodyParser();
  try {
    await parse(ctx, async () => {});
  } catch (error) {
    throw bodyError(error as Error, operation.operationId);
  }
  return ctx.request.body;
}

// Query strings recur (a partner polls the same page): Koa parses the string again for every
// request (4% of a polled list's CPU time in a V8 profile), so each distinct one is parsed
// once. Every request gets its own copy, arrays included: validation coerces values in place.
const parsedQueries = new Map<string, Record<string, string | string[]>>();
const PARSED_QUERIES_KEPT = 512;
/** Longer ones (rare: searches naming many ids) are parsed each time, so the kept ones stay small. */
const KEPT_QUERY_LENGTH = 1_024;

export function queryOf(ctx: Pick<Context, 'querystring' | 'query'>): Record<string, string | string[]> {
  const text = ctx.querystring;
  let parsed = parsedQueries.get(text);
  if (parsed === undefined) {
    parsed = ctx.query as Record<string, string | string[]>;
    if (text.length <= KEPT_QUERY_LENGTH) {
      if (parsedQueries.size >= PARSED_QUERIES_KEPT) parsedQueries.clear();
      parsedQueries.set(text, { ...parsed });
    }
  }
  const copy: Record<string, string | string[]> = {};
  for (const name in parsed) {
    const value = parsed[name]!;
    copy[name] = typeof value === 'string' ? value : [...value];
  }
  return copy;
}

export function dispatch(api: OpenAPIBackend): Middleware {
  return async (ctx) => {
    // The router percent-decodes path segments and would throw a URIError on `%ZZ`.
    const path = ctx.path;
    if (path.includes('%')) {
      try {
        decodeURIComponent(path);
      } catch {
        throw new ApiError('invalid_parameter', 'The path is not valid percent-encoded UTF-8.', [{ field: 'path', issue: 'is not valid percent-encoded UTF-8' }]);
      }
    }
    // HEAD is served by the GET operation (RFC 9110 section 9.3.2): same status and headers;
    // Koa sends no body for a HEAD (keeping the Content-Length the GET would have).
    const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
    const request: RouteRequest = { method, path, query: queryOf(ctx) as RouteRequest['query'], headers: ctx.headers as RouteRequest['headers'] };
    if (ctx.method === 'POST' || ctx.method === 'PUT' || ctx.method === 'PATCH') {
      request.body = await readBody(ctx, api, request);
    }
    const result = (await api.handleRequest(request, ctx)) as OperationResult;
    writeAnswer(ctx, result);
  };
}

/** Plain JSON data (an object or array literal), which Koa would serialize itself. */
function isPlainJson(body: unknown): body is object {
  if (body === null || typeof body !== 'object') return false;
  const prototype = Object.getPrototypeOf(body) as unknown;
  return prototype === Object.prototype || prototype === Array.prototype || prototype === null;
}

// Written on Koa's response object, not through the context: the context's setters are
// `delegates` closures whose one shared keyed store reaches the response's accessors through
// V8's runtime on every call (5% of a /healthz request's CPU time in a perf profile,
// 2026-11-27). A JSON body is serialized here as Koa would (same text, same Content-Type
// unless the operation gave a JSON one). The most common answer, a GET's 200 with JSON, is
// written to Node's response as Koa's respond would write it (status, headers, the bytes and
// their length) and Koa is told not to respond again: its body, type and length setters and
// respond were 3 µs of a /healthz request. Anything else (HEAD, 304, a stream, text) goes
// through Koa as before.
export function writeAnswer(ctx: Context, result: OperationResult): void {
  const status = result.status ?? 200;
  const headers = result.headers;
  const json = jsonAnswerOf(result);
  if (json && status === 200 && ctx.method === 'GET' && ctx.writable) {
    const res = ctx.res;
    res.statusCode = 200;
    if (headers) for (const name in headers) res.setHeader(name, headers[name]!);
    res.setHeader('Content-Type', json.type);
    res.setHeader('Content-Length', typeof json.text === 'string' ? Buffer.byteLength(json.text) : json.text.length);
    ctx.respond = false;
    res.end(json.text);
    return;
  }
  const response = ctx.response;
  response.status = status;
  if (headers) for (const name in headers) response.set(name, headers[name]!);
  if (json) {
    response.set('Content-Type', json.type);
    response.body = json.text;
  } else {
    response.body = result.body;
  }
}

/**
 * A JSON answer's text and Content-Type, as Koa gives a JSON body: bytes serialized already
 * with Koa's JSON type; data serialized, with the operation's own type if it is a JSON one.
 */
function jsonAnswerOf(result: OperationResult): { text: string | Buffer; type: string } | undefined {
  const body = result.body;
  if (body instanceof RenderedJson) return { text: body.bytes, type: JSON_CONTENT_TYPE };
  if (!isPlainJson(body)) return undefined;
  const given = result.headers && contentTypeIn(result.headers);
  return { text: JSON.stringify(body), type: given !== undefined && /\bjson\b/i.test(given) ? given : JSON_CONTENT_TYPE };
}

/** The Content-Type an operation gave, whatever the case of its name. */
function contentTypeIn(headers: Record<string, string>): string | undefined {
  for (const name in headers) if (name.length === 12 && name.toLowerCase() === 'content-type') return headers[name];
  return undefined;
}
