// Plain HTTP calls for tests, each answer checked against the contract.
import { assertMatchesContract } from './contract.js';

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  token?: string;
  json?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
  rawBody?: string;
  /** 'manual': a 3xx is returned as it is (the console's forms answer 303). */
  redirect?: 'manual';
}

export async function call<T = any>(baseUrl: string, method: string, path: string, options: RequestOptions = {}): Promise<TestResponse<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.json);
  }
  if (options.form) {
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  }
  const response = await fetch(baseUrl + path, { method, headers, body, ...(options.redirect ? { redirect: options.redirect } : {}) });
  const text = await response.text();
  let parsed: unknown = text;
  // NDJSON stays text, even a one-line file (one resource) that would parse as JSON.
  if (!/ndjson/i.test(response.headers.get('content-type') ?? '')) try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // left as text: the contract check fails on it
  }
  await assertMatchesContract(method, baseUrl + path, response.status, response.headers, parsed);
  return { status: response.status, headers: response.headers, body: parsed as T };
}

export async function tokenFor(baseUrl: string, client: { client_id: string; client_secret: string }, scope?: string): Promise<string> {
  const form: Record<string, string> = { grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret };
  if (scope !== undefined) form.scope = scope;
  const response = await call(baseUrl, 'POST', '/api/v1/oauth/token', { form });
  if (response.status !== 200) throw new Error(`token request failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.access_token as string;
}
