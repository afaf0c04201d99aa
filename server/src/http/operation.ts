// The shape of an operation handler: what it gets from a validated, authorized request and
// what it gives back. Handlers never touch Koa directly, so they stay small and testable.
// `App` is what the running service hands them and `Who` the authenticated caller: the domain
// layer names both (app-context.ts), http only carries them.
import type { Context } from 'koa';
import type { Disclosure } from '../db/disclosure-encoding.js';

export interface PublicOperationRequest<App = unknown> {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  requestId: string;
  app: App;
  koa: Context;
}

export interface OperationResult {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  /** What the audit trail records of this answer: the ids returned, never their contents. */
  audit?: { resourceIds: string[]; disclosures?: Disclosure[] };
}

/** An operation secured with oauth2: the caller is authenticated and authorized. */
export interface OperationRequest<App = unknown, Who = unknown> extends PublicOperationRequest<App> {
  principal: Who;
}

export type OperationHandler<App = unknown, Who = unknown> = (request: OperationRequest<App, Who>) => Promise<OperationResult>;
/** The token endpoint and the probes, which need no bearer token. */
export type PublicOperationHandler<App = unknown> = (request: PublicOperationRequest<App>) => Promise<OperationResult>;
