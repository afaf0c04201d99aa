// The operators' console from a test's side: a sign-in link, signing in with it (the session
// cookie), and pages and forms with that cookie, every answer checked against the contract.
import type { Knex } from 'knex';
import { expect } from 'chai';
import { createConsoleLink } from '../../server/src/console/console-links.js';
import { call, type TestResponse } from './http.js';

export async function consoleLinkToken(db: Knex, orgId: string, operator = 'test operator'): Promise<string> {
  return (await createConsoleLink(db, { orgId, operator, ttlMs: 15 * 60_000 })).token;
}

export interface ConsoleBrowser {
  cookie: string;
  get(path: string): Promise<TestResponse<string>>;
  /** A form post; the page's CSRF token unless `csrf_token` is given. */
  post(path: string, form?: Record<string, string>): Promise<TestResponse<string>>;
  csrfToken(): Promise<string>;
}

/** The value of the hidden csrf_token field of a console page. */
export function csrfTokenIn(page: string): string {
  const match = /name="csrf_token" value="([^"]+)"/.exec(page);
  if (!match) throw new Error('no csrf_token field on the page');
  return match[1]!;
}

export async function signInToConsole(baseUrl: string, token: string): Promise<ConsoleBrowser> {
  const signedIn = await call<string>(baseUrl, 'POST', '/console/sign-in', { form: { token }, redirect: 'manual', headers: { accept: 'text/html' } });
  expect(signedIn.status, String(signedIn.body)).to.equal(303);
  const setCookie = signedIn.headers.get('set-cookie')!;
  const cookie = setCookie.split(';')[0]!;
  const browser: ConsoleBrowser = {
    cookie,
    get: (path) => call<string>(baseUrl, 'GET', path, { headers: { cookie, accept: 'text/html' }, redirect: 'manual' }),
    async post(path, form = {}) {
      const fields = 'csrf_token' in form ? form : { csrf_token: await browser.csrfToken(), ...form };
      return call<string>(baseUrl, 'POST', path, { form: fields, headers: { cookie, accept: 'text/html' }, redirect: 'manual' });
    },
    async csrfToken() {
      return csrfTokenIn((await browser.get('/console')).body);
    },
  };
  return browser;
}
