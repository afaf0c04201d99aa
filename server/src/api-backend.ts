// openapi-backend, built from the contract: routes and validates every request. It fails
// open unless every fallback handler is registered (toolchain notes), so all of them are,
// and each one throws the catalogue's error.
import { OpenAPIBackend, type Context as RouteContext, type Operation } from 'openapi-backend';
import type { Context } from 'koa';
import { ApiError } from './errors/api-error.js';
import { OAuthError } from './errors/oauth-error.js';
import type { AppContext, OperationHandler, PublicOperationHandler, PublicOperationRequest } from './app-context.js';
import type { Principal } from './auth/principal.js';
import { authenticateBearer } from './auth/bearer-authentication.js';
import type { Disclosure } from './db/disclosure-encoding.js';
import { authorize, type ScopeAlternatives } from './tenancy/authorize.js';
import type { Interaction } from './tenancy/scope-grants.js';
import type { OperationResult } from './http/operation.js';
import { openApiDocumentCopy } from './openapi/openapi-document.js';
import { ajv2020 } from './openapi/ajv-2020.js';
import { validationDetails } from './openapi/validation-details.js';
import { explainingParameterIssues } from './openapi/parameter-issues.js';
import { compiledOperationMatcher } from './openapi/operation-matcher.js';
import { compiledRequestParser } from './openapi/request-parser.js';
import { compiledRequestHandler } from './openapi/request-handler.js';
import { compiledRequestValidator } from './openapi/request-validator.js';
import { refusingNulCharacters } from './openapi/nul-characters.js';
import { isUuid } from './db/uuid.js';
import { METRICS_OPERATION, metricsAuthorized, metricsUnauthorized } from './http/metrics-endpoint.js';
import { rememberErrorFormat } from './http/error-format.js';
import { TOKEN_OPERATION } from './errors/token-endpoint.js';
import { quotaAdmission } from './quotas/quota-admission.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export interface OperationRegistry {
  secured: Record<string, OperationHandler>;
  public: Record<string, PublicOperationHandler>;
  /**
   * The operators' console's session check (security scheme `consoleSession`): the live
   * session of the request's cookie, or undefined. Its handlers are among `public` (they
   * read the session from ctx.state.consoleSession and write their own audit rows).
   */
  consoleSession?: (ctx: Context, app: AppContext) => Promise<unknown>;
}

export const CONSOLE_SECURITY_SCHEME = 'consoleSession';

/** The operation's scopes: one set, or (several security requirements) any one of several sets. */
function requiredScopes(operation: Operation): string[] | ScopeAlternatives {
  const requirements = operation.security ?? [];
  if (requirements.length > 1 && requirements.every((requirement) => requirement.oauth2 !== undefined)) {
    return { anyOf: requirements.map((requirement) => requirement.oauth2 ?? []) };
  }
  return requirements.flatMap((requirement) => requirement.oauth2 ?? []);
}

/**
 * What the operation does with its read scope (SMART's r or s): `read` when the contract marks
 * it `x-ofctx-interaction: read` (a read by id), else `search` (lists, searches, exports, the
 * event log; operations without a read scope ignore it).
 */
function interactionOf(operation: Operation): Interaction {
  return (operation as Operation & { 'x-ofctx-interaction'?: string })['x-ofctx-interaction'] === 'read' ? 'read' : 'search';
}

const UPPER_CASE_HEX = /[A-F]/;

/**
 * Ids are stored in lower case; a caller may send upper case (RFC 4122 allows it). A copy only
 * when there is one to lower (rarely): no handler writes to its params or query.
 */
function lowerUuids<T extends Record<string, unknown>>(values: T): T {
  let lowered: Record<string, unknown> | undefined;
  for (const name in values) {
    const value = values[name];
    if (isUuid(value) && UPPER_CASE_HEX.test(value)) (lowered ??= { ...values })[name] = value.toLowerCase();
  }
  return (lowered ?? values) as T;
}

function baseRequest(
  c: RouteContext,
  ctx: Context,
  app: AppContext,
  params = lowerUuids(c.request.params as Record<string, string>),
): PublicOperationRequest {
  return {
    params,
    query: lowerUuids((c.request.query ?? {}) as Record<string, unknown>),
    body: c.request.requestBody,
    headers: ctx.headers,
    requestId: ctx.state.requestId as string,
    app,
    koa: ctx,
  };
}

function securedHandler(operationId: string, handler: OperationHandler, app: AppContext) {
  let scopes: ReturnType<typeof requiredScopes> | undefined;
  let interaction: Interaction | undefined;
  return async (c: RouteContext, ctx: Context): Promise<OperationResult> => {
    const principal = c.security?.oauth2 as Principal;
    const params = lowerUuids(c.request.params as Record<string, string>);
    // One operation per handler: its scopes are read from the contract once.
    scopes ??= requiredScopes(c.operation);
    interaction ??= interactionOf(c.operation);
    let status = 500;
    let resourceIds: string[] | null = null;
    let disclosures: Disclosure[] | null = null;
    try {
      authorize(principal, scopes, params, interaction);
      const result = await handler({ ...baseRequest(c, ctx, app, params), principal });
      status = result.status ?? 200;
      resourceIds = result.audit?.resourceIds ?? null;
      // A 304 sends nothing the caller does not already hold.
      if (status === 200) disclosures = result.audit?.disclosures ?? null;
      return result;
    } catch (error) {
      status = error instanceof ApiError ? error.status : 500;
      throw error;
    } finally {
      await app.audit.record({
        requestId: ctx.state.requestId as string,
        clientId: principal.clientId,
        orgId: principal.orgId,
        facilityId: params.facility_id ?? null,
        operation: operationId,
        status,
        resourceIds,
        purpose: principal.policy.purpose,
        disclosures,
      });
    }
  };
}

export async function createApiBackend(app: AppContext, registry: OperationRegistry): Promise<OpenAPIBackend> {
  const api = new OpenAPIBackend({
    definition: openApiDocumentCopy(),
    // Its definition check is OAS 3.0-only and, failing on our 3.1 document, would skip
    // dereferencing; quick mode skips that check (Redocly lints the document instead) and
    // compiles each operation's validators on its first request.
    quick: true,
    strict: false,
    validate: true,
    coerceTypes: true,
    customizeAjv: ajv2020 as never,
  });

  await api.init();
  // The router rebuilds its operation list and compiles a RegExp per operation on every
  // request; the document never changes after init, so both are built once.
  const operationList = api.router.getOperations();
  api.router.getOperations = () => operationList;
  api.router.matchOperation = compiledOperationMatcher(api.router) as typeof api.router.matchOperation;
  // The router and the validator parse each request four times: with the path template
  // compiled once per operation, and without the library's throw-away work.
  api.router.parseRequest = compiledRequestParser(api.router);
  // The validator works out per request what depends only on the operation: once per operation.
  // A parameter holding NUL is refused there too (nul-characters.ts), and a refusal's issues
  // say what to send instead of Ajv's regular expressions (parameter-issues.ts).
  api.validator.validateRequest = explainingParameterIssues(refusingNulCharacters(compiledRequestValidator(api.validator), api.router), api.validator);
  // The loop around them, with the same steps and handlers (request-handler.ts).
  api.handleRequest = compiledRequestHandler(api);
  api.registerSecurityHandler('oauth2', (_c: RouteContext, ctx: Context) =>
    authenticateBearer(ctx.get('authorization') || undefined, app.tokens),
  );
  // The token endpoint authenticates Basic credentials itself, with RFC 6749 errors.
  api.registerSecurityHandler('clientBasic', () => true);
  // Never satisfied by a bearer token: the console opens only with its own session cookie.
  const consoleSession = registry.consoleSession;
  api.registerSecurityHandler(CONSOLE_SECURITY_SCHEME, async (_c: RouteContext, ctx: Context) => {
    if (!consoleSession) return undefined;
    const session = await consoleSession(ctx, app);
    if (session !== undefined) ctx.state.consoleSession = session;
    return session;
  });
  api.registerSecurityHandler('metricsToken', (_c: RouteContext, ctx: Context) => metricsAuthorized(ctx.get('authorization') || undefined, app.config.metrics));

  const admit = quotaAdmission(app.quotas, () => app.metrics.clientQuotaRefusals.inc());
  api.register({
    postRoutingHandler: (c: RouteContext, ctx: Context) => {
      // Also called for requests that matched no operation (then answered 404 or 405).
      ctx.state.routePath = c.operation?.path;
      ctx.state.operationId = c.operation?.operationId;
      rememberErrorFormat(ctx, c.operation as Record<string, unknown> | undefined);
    },
    // Once per request, whatever the number of security requirements (each alternative calls
    // the bearer handler again): the credential's quota, for an authenticated caller only.
    postSecurityHandler: (c: RouteContext, ctx: Context) => {
      if (!c.security?.authorized) return;
      const principal = c.security.oauth2 as Principal | { error: unknown } | undefined;
      return principal && 'clientPk' in principal ? admit(ctx, principal, c.operation, c.request.query as Record<string, unknown>) : undefined;
    },
    unauthorizedHandler: (c: RouteContext) => {
      if (c.operation.operationId === METRICS_OPERATION) throw metricsUnauthorized(c.request.headers.authorization);
      if (c.operation.security?.some((requirement) => requirement[CONSOLE_SECURITY_SCHEME] !== undefined)) throw new ApiError('console_sign_in_required');
      const failure = (c.security?.oauth2 as { error?: unknown } | undefined)?.error;
      throw failure instanceof ApiError ? failure : new ApiError('invalid_token');
    },
    validationFail: (c: RouteContext) => {
      const details = validationDetails(c.validation.errors);
      if (c.operation.operationId === TOKEN_OPERATION) {
        throw new OAuthError('invalid_request', details.map((d) => `${d.field} ${d.issue}`).join('; ') || 'The token request is malformed.', { 'Cache-Control': 'no-store' });
      }
      const onBody = details.length > 0 && details.every((d) => d.field === 'body' || d.field.startsWith('body.'));
      throw new ApiError(onBody ? 'invalid_body' : 'invalid_parameter', undefined, details);
    },
    notFound: () => {
      throw new ApiError('not_found', 'No operation at this path; the API is described at /openapi.json.');
    },
    methodNotAllowed: (c: RouteContext) => {
      const allowed = METHODS.filter((method) => api.router.matchOperation({ ...c.request, method }) !== undefined).map((m) => m.toUpperCase());
      // Every GET also answers HEAD (http/dispatch.ts).
      if (allowed.includes('GET')) allowed.splice(allowed.indexOf('GET') + 1, 0, 'HEAD');
      throw new ApiError('method_not_allowed', undefined, [], { Allow: allowed.join(', ') });
    },
    notImplemented: (c: RouteContext) => {
      throw new Error(`operation ${c.operation.operationId} has no handler`);
    },
  });

  for (const [operationId, handler] of Object.entries(registry.secured)) {
    api.register(operationId, securedHandler(operationId, handler, app));
  }
  for (const [operationId, handler] of Object.entries(registry.public)) {
    api.register(operationId, (c: RouteContext, ctx: Context) => handler(baseRequest(c, ctx, app)));
  }
  return api;
}
