// The shape of an operation handler: what it gets from a validated, authorized request and
// what it gives back. Handlers never touch Koa directly, so they stay small and testable.
import type { Context } from 'koa';
import type { AppContext } from '../app-context.js';
import type { Principal } from '../auth/principal.js';
import type { Disclosure } from '../db/disclosure-encoding.js';

export interface PublicOperationRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  requestId: string;
  app: AppContext;
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
export interface OperationRequest extends PublicOperationRequest {
  principal: Principal;
}

export type OperationHandler = (request: OperationRequest) => Promise<OperationResult>;
/** The token endpoint and the probes, which need no bearer token. */
export type PublicOperationHandler = (request: PublicOperationRequest) => Promise<OperationResult>;
