// What every console operation goes through: the session (checked by the contract's
// `consoleSession` scheme before the operation runs), for a POST the CSRF token and the
// origin, the audit row (client `console:<session id>`, the operation, its status and the ids
// it showed or changed: every view and every action), and the answer: the page in its frame,
// or a 303 back to a page with the action's outcome left for it (POST, redirect, GET).
import type { VNode } from 'preact';
import type { Context } from 'koa';
import { ApiError } from '../errors/api-error.js';
import type { OperationResult } from '../http/operation.js';
import type { PublicOperationHandler, PublicOperationRequest } from '../app-context.js';
import { findOrganization } from '../organizations/organizations.js';
import type { AppContext } from '../app-context.js';
import { csrfTokenMatches, csrfTokenOf, CSRF_FIELD } from './console-csrf.js';
import { findConsoleSession, setFlash, takeFlash, type ConsoleSession } from './console-sessions.js';
import { sessionCookieOf } from './console-cookie.js';
import { ConsolePage, html, type NavKey } from './views/layout.js';

export interface ConsoleRequest extends PublicOperationRequest {
  session: ConsoleSession;
  /** The form's fields (a POST), else empty. */
  form: Record<string, unknown>;
}

interface Audited {
  /** The ids the page showed or the action changed. */
  resourceIds?: string[];
  facilityId?: string | null;
}

export type ConsoleAnswer = Audited & ({ page: { title: string; nav: NavKey; content: VNode } } | { redirect: string; flash?: string; setCookie?: string });

export type ConsoleHandler = (request: ConsoleRequest) => Promise<ConsoleAnswer>;

/** The audit trail's client for a console session. */
export function consoleClientId(sessionId: string): string {
  return `console:${sessionId}`;
}

/** The registry's `consoleSession` check: the live session the request's cookie names. */
export function consoleSessionOf(ctx: Context, app: AppContext): Promise<ConsoleSession | undefined> {
  return findConsoleSession(app.db, sessionCookieOf(ctx.get('cookie') || undefined), app.config.console);
}

/**
 * A form must come from a console page of this service: a browser sends Origin with every
 * POST, and Sec-Fetch-Site tells a cross-site one (SameSite=Strict keeps the cookie off those
 * already; this refuses them even where a browser would not).
 */
export function assertSameOrigin(headers: PublicOperationRequest['headers'], host: string): void {
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') throw new ApiError('csrf_token_invalid');
  const origin = headers.origin;
  if (typeof origin !== 'string') return;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw new ApiError('csrf_token_invalid');
  }
  if (originHost !== host) throw new ApiError('csrf_token_invalid');
}

function consoleOperation(operationId: string, handler: ConsoleHandler): PublicOperationHandler {
  return async (request) => {
    const { app, koa } = request;
    const session = koa.state.consoleSession as ConsoleSession;
    let status = 500;
    let audited: Audited = {};
    try {
      const form = koa.method === 'POST' ? ((request.body as Record<string, unknown> | undefined) ?? {}) : {};
      if (koa.method === 'POST') {
        assertSameOrigin(request.headers, koa.host);
        if (!csrfTokenMatches(session, form[CSRF_FIELD])) throw new ApiError('csrf_token_invalid');
      }
      const answer = await handler({ ...request, session, form });
      audited = answer;
      const result = await resultOf(app, session, answer);
      status = result.status ?? 200;
      return result;
    } catch (error) {
      status = error instanceof ApiError ? error.status : 500;
      throw error;
    } finally {
      await app.audit.record({
        requestId: request.requestId,
        clientId: consoleClientId(session.id),
        orgId: session.orgId,
        facilityId: audited.facilityId ?? null,
        operation: operationId,
        status,
        resourceIds: audited.resourceIds ?? null,
      });
    }
  };
}

async function resultOf(app: AppContext, session: ConsoleSession, answer: ConsoleAnswer): Promise<OperationResult> {
  if ('redirect' in answer) {
    if (answer.flash) await setFlash(app.db, session.id, answer.flash);
    return { status: 303, body: '', headers: { Location: answer.redirect, ...(answer.setCookie ? { 'Set-Cookie': answer.setCookie } : {}) } };
  }
  const [organization, flash] = await Promise.all([findOrganization(app.db, session.orgId), takeFlash(app.db, session.id)]);
  const { title, nav, content } = answer.page;
  const signedIn = { orgName: organization?.name ?? session.orgId, operator: session.operator, csrfToken: csrfTokenOf(session) };
  const page = html(
    <ConsolePage title={title} nav={nav} signedIn={signedIn} flash={flash}>
      {content}
    </ConsolePage>,
  );
  return { status: 200, body: page, headers: { 'Content-Type': 'text/html; charset=utf-8' } };
}

/** Each handler behind the session, CSRF and audit steps, under its operationId. */
export function consoleOperations(handlers: Record<string, ConsoleHandler>): Record<string, PublicOperationHandler> {
  return Object.fromEntries(Object.entries(handlers).map(([operationId, handler]) => [operationId, consoleOperation(operationId, handler)]));
}
