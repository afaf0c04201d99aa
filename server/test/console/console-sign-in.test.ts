// The console's sign-in: a link signs in once, expires, is stored only as a hash; a session's
// cookie opens it until sign-out, its absolute expiry or its idle timeout, and its secret is
// stored only as a hash; CSRF tokens belong to one session; the cookie is Secure except on
// plain HTTP at a loopback address.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { freshKnexForSuite } from '../../../test/support/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createOrganization } from '../../src/organizations/organizations.js';
import { createConsoleLink, parseLinkTtl, redeemConsoleLink } from '../../src/console/console-links.js';
import { cookieValueOf, endConsoleSession, findConsoleSession, openConsoleSession, type ConsoleSession } from '../../src/console/console-sessions.js';
import { csrfTokenMatches, csrfTokenOf } from '../../src/console/console-csrf.js';
import { onLoopback, sessionCookie, sessionCookieOf } from '../../src/console/console-cookie.js';

const CONFIG = { sessionHours: 8, idleMinutes: 30 };

describe('console sign-in links and sessions', function () {
  this.timeout(20_000);
  let orgId: string;
  const db = freshKnexForSuite(async (knex) => {
    await migrateToLatest(knex);
    orgId = (await createOrganization(knex, 'Console Org')).id;
  });

  async function signIn(token: string, at = Date.now()): Promise<ConsoleSession | undefined> {
    return db().transaction(async (trx: Knex.Transaction) => {
      const link = await redeemConsoleLink(trx, token, at);
      return link ? openConsoleSession(trx, link, CONFIG, at) : undefined;
    });
  }

  it('stores only the hash of a link token, and signs in with it once', async () => {
    const link = await createConsoleLink(db(), { orgId, operator: 'ana', ttlMs: 60_000 });
    expect(link.token).to.match(/^ocl_[A-Za-z0-9_-]{43}$/);
    const row = await db()('console_links').where({ id: link.id }).first();
    expect(JSON.stringify(row)).not.to.include(link.token.slice(4));
    const session = await signIn(link.token);
    expect(session).to.include({ orgId, operator: 'ana' });
    expect(await signIn(link.token)).to.equal(undefined);
  });

  it('signs in once when the same link is used twice at the same time', async () => {
    const link = await createConsoleLink(db(), { orgId, operator: 'ana', ttlMs: 60_000 });
    const outcomes = await Promise.all([signIn(link.token), signIn(link.token), signIn(link.token)]);
    expect(outcomes.filter((s) => s !== undefined)).to.have.length(1);
  });

  it('refuses an expired link and a made-up one', async () => {
    const now = Date.now();
    const link = await createConsoleLink(db(), { orgId, operator: 'ana', ttlMs: 60_000 }, now);
    expect(await signIn(link.token, now + 60_001)).to.equal(undefined);
    expect(await signIn('ocl_' + 'A'.repeat(43))).to.equal(undefined);
    expect(await signIn('not a token')).to.equal(undefined);
  });

  it('reads --ttl as seconds, minutes or hours, at most a day', () => {
    expect(parseLinkTtl('15m')).to.equal(900_000);
    expect(parseLinkTtl('90s')).to.equal(90_000);
    expect(parseLinkTtl('24h')).to.equal(86_400_000);
    expect(parseLinkTtl('25h')).to.equal(undefined);
    expect(parseLinkTtl('0m')).to.equal(undefined);
    expect(parseLinkTtl('15')).to.equal(undefined);
  });

  it('opens a session by its cookie until sign-out, storing only the hash of its secret', async () => {
    const link = await createConsoleLink(db(), { orgId, operator: 'ana', ttlMs: 60_000 });
    const session = (await signIn(link.token))!;
    const row = await db()('console_sessions').where({ id: session.id }).first();
    expect(JSON.stringify(row)).not.to.include(session.secret);
    expect(await findConsoleSession(db(), cookieValueOf(session), CONFIG)).to.include({ id: session.id, orgId });
    expect(await findConsoleSession(db(), `${session.id}.${session.secret}x`, CONFIG)).to.equal(undefined);
    expect(await findConsoleSession(db(), `${session.id}`, CONFIG)).to.equal(undefined);
    await endConsoleSession(db(), session.id);
    expect(await findConsoleSession(db(), cookieValueOf(session), CONFIG)).to.equal(undefined);
  });

  it('ends a session at its absolute expiry and after the idle timeout', async () => {
    const now = Date.now();
    const link = await createConsoleLink(db(), { orgId, operator: 'ana', ttlMs: 60_000 }, now);
    const session = (await signIn(link.token, now))!;
    const cookie = cookieValueOf(session);
    // Used every 20 minutes, it lives; 31 idle minutes end it.
    expect(await findConsoleSession(db(), cookie, CONFIG, now + 20 * 60_000)).not.to.equal(undefined);
    expect(await findConsoleSession(db(), cookie, CONFIG, now + 40 * 60_000)).not.to.equal(undefined);
    expect(await findConsoleSession(db(), cookie, CONFIG, now + 71 * 60_000)).to.equal(undefined);
    const other = (await signIn((await createConsoleLink(db(), { orgId, operator: 'ana', ttlMs: 60_000 }, now)).token, now))!;
    const keptAlive = { ...CONFIG, idleMinutes: 10_000 };
    expect(await findConsoleSession(db(), cookieValueOf(other), keptAlive, now + 7 * 3_600_000)).not.to.equal(undefined);
    expect(await findConsoleSession(db(), cookieValueOf(other), keptAlive, now + 8 * 3_600_000 + 1)).to.equal(undefined);
  });

  it("accepts a session's own CSRF token only", () => {
    const a = { id: '0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21', secret: 'secret-a' };
    const b = { id: '0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c22', secret: 'secret-b' };
    expect(csrfTokenMatches(a, csrfTokenOf(a))).to.equal(true);
    expect(csrfTokenMatches(a, csrfTokenOf(b))).to.equal(false);
    expect(csrfTokenMatches(a, '')).to.equal(false);
    expect(csrfTokenMatches(a, undefined)).to.equal(false);
    expect(csrfTokenMatches(a, [csrfTokenOf(a)])).to.equal(false);
  });

  it('marks the cookie Secure except on plain HTTP at a loopback address', () => {
    expect(onLoopback({ protocol: 'http', hostname: '127.0.0.1', remoteAddress: '127.0.0.1' })).to.equal(true);
    expect(onLoopback({ protocol: 'http', hostname: 'localhost', remoteAddress: '::1' })).to.equal(true);
    expect(onLoopback({ protocol: 'http', hostname: 'localhost', remoteAddress: '::ffff:127.0.0.1' })).to.equal(true);
    // A proxy on the same host passes the public name.
    expect(onLoopback({ protocol: 'http', hostname: 'ofctx.example.org', remoteAddress: '127.0.0.1' })).to.equal(false);
    expect(onLoopback({ protocol: 'https', hostname: 'localhost', remoteAddress: '127.0.0.1' })).to.equal(false);
    expect(onLoopback({ protocol: 'http', hostname: '127.0.0.1', remoteAddress: '10.0.0.5' })).to.equal(false);
    const secure = sessionCookie('id.secret', 60, { protocol: 'https', hostname: 'ofctx.example.org', remoteAddress: '10.0.0.5' });
    expect(secure.split('; ').sort()).to.deep.equal(['HttpOnly', 'Max-Age=60', 'Path=/console', 'SameSite=Strict', 'Secure', 'ofctx_console=id.secret']);
    expect(sessionCookie('id.secret', 60, { protocol: 'http', hostname: '127.0.0.1', remoteAddress: '127.0.0.1' })).not.to.include('Secure');
    expect(sessionCookieOf('a=b; ofctx_console=id.secret; c=d')).to.equal('id.secret');
    expect(sessionCookieOf(undefined)).to.equal(undefined);
  });
});
