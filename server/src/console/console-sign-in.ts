// Signing in and out. The link leads to a page whose button posts the token: the POST redeems
// the link (once) and opens the session in one transaction, then sets the cookie. Signing out
// ends the session in the database (a copied cookie opens nothing after) and clears the cookie.
import { ApiError } from '../errors/api-error.js';
import type { PublicOperationHandler, PublicOperationRequest } from '../app-context.js';
import { redeemConsoleLink, SIGN_IN_PATH } from './console-links.js';
import { cookieValueOf, endConsoleSession, openConsoleSession } from './console-sessions.js';
import { clearedSessionCookie, sessionCookie, type RequestOrigin } from './console-cookie.js';
import { assertSameOrigin, consoleClientId, type ConsoleHandler } from './console-requests.js';
import { signInPage } from './views/plain-pages.js';

function originOf(request: PublicOperationRequest): RequestOrigin {
  return { protocol: request.koa.protocol, hostname: request.koa.hostname, remoteAddress: request.koa.socket.remoteAddress };
}

const consoleSignInPage: PublicOperationHandler = async ({ query }) => ({
  body: signInPage(query.token as string | undefined),
  headers: { 'Content-Type': 'text/html; charset=utf-8' },
});

const consoleSignIn: PublicOperationHandler = async (request) => {
  const { app, koa } = request;
  let status = 500;
  let sessionId: string | undefined;
  let orgId: string | null = null;
  let linkId: string | undefined;
  try {
    assertSameOrigin(request.headers, koa.host);
    const token = (request.body as { token: string }).token;
    const session = await app.db.transaction(async (trx) => {
      const link = await redeemConsoleLink(trx, token);
      if (!link) return undefined;
      linkId = link.id;
      return openConsoleSession(trx, link, app.config.console);
    });
    if (!session) throw new ApiError('console_link_invalid');
    sessionId = session.id;
    orgId = session.orgId;
    app.logger.info({ console_session: session.id, org_id: session.orgId }, 'console session opened by a sign-in link');
    status = 303;
    const maxAge = (Date.parse(session.expiresAt) - Date.now()) / 1000;
    return { status: 303, body: '', headers: { Location: '/console', 'Set-Cookie': sessionCookie(cookieValueOf(session), maxAge, originOf(request)) } };
  } catch (error) {
    status = error instanceof ApiError ? error.status : 500;
    throw error;
  } finally {
    await app.audit.record({
      requestId: request.requestId,
      clientId: sessionId === undefined ? 'console' : consoleClientId(sessionId),
      orgId,
      facilityId: null,
      operation: 'consoleSignIn',
      status,
      resourceIds: linkId === undefined ? null : [linkId],
    });
  }
};

export const consoleSignOut: ConsoleHandler = async (request) => {
  await endConsoleSession(request.app.db, request.session.id);
  request.app.logger.info({ console_session: request.session.id }, 'console session ended by sign-out');
  return { redirect: SIGN_IN_PATH, setCookie: clearedSessionCookie(originOf(request)), resourceIds: [request.session.id] };
};

export const signInOperations: Record<string, PublicOperationHandler> = { consoleSignInPage, consoleSignIn };
