// openapi-backend's handleRequest, the same steps in the same order with the same handlers,
// without its per-request scaffolding: an async closure called through bind, lodash's flatMap
// over the security requirements, a Promise.all and three promise chains per security scheme
// even where an operation has none or one, an await on every hook whether registered or not,
// and two parses of the request whose results are replaced before anyone reads them (before
// routing and after it; validation parses again and coercion once more). That scaffolding,
// with the parses it drives, was about half of a /healthz request's CPU time (paired A/B,
// 2026-11-26: 78 µs with the library's loop, 38 with /healthz answered before it). Here the
// loop is synchronous until something returns a promise: a hook or a security handler that
// is async is awaited, one that is not costs no turn of the event loop, and the operation's
// own promise is handed back as it is. The parses a handler may still read (a 404, 405 or
// 401 handler reads the request) are made on first read. The router, the validator and the
// handlers are the library's (or this service's compiled equivalents); a test runs both
// loops over the same requests and compares every step a handler sees. One difference, on
// purpose: where the library, not in strict mode, would warn and call the operation's handler
// anyway (a request unauthorized or invalid with no handler registered for that), this fails
// closed; the service registers both.
import type { Context as RouteContext, Handler, OpenAPIBackend, OpenAPIRouter, Operation, ParsedRequest, Request } from 'openapi-backend';
import { coercedRequestOf } from './request-validator.js';

type Hooks = Record<string, Handler | undefined>;

interface Backend {
  initialized: boolean;
  init(): Promise<unknown>;
  handlers: Hooks;
  securityHandlers: Hooks;
  validate: boolean | ((context: RouteContext, ...args: unknown[]) => boolean);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';
}

/** `next(value)` now, or once `value` settles when it is a promise: an await only where there is something to wait for. */
function afterwards<T>(value: unknown, next: (settled: unknown) => T): T | Promise<T> {
  return isThenable(value) ? Promise.resolve(value).then(next) : next(value);
}

/** The route context; `request` is parsed from the raw request on its first read, unless set before. */
class LoopContext {
  operation?: Operation;
  security?: RouteContext['security'];
  validation?: RouteContext['validation'];
  response?: unknown;
  #parsed: ParsedRequest | undefined;

  constructor(
    readonly api: OpenAPIBackend,
    private readonly router: OpenAPIRouter,
    private readonly raw: Request,
  ) {}

  /** Routed: the request is parsed again, for the operation (its path parameters), on first read. */
  routedTo(operation: Operation): void {
    this.operation = operation;
    this.#parsed = undefined;
  }

  get request(): ParsedRequest {
    this.#parsed ??= this.router.parseRequest(this.raw, this.operation);
    return this.#parsed;
  }

  set request(parsed: ParsedRequest) {
    this.#parsed = parsed;
  }
}

/** A security handler's outcome as the library records it: its result, or its failure as `{ error }`. */
function securityResult(handler: Handler, context: RouteContext, args: unknown[]): unknown {
  const failed = (error: unknown) => ({ error: error || new Error('security handler rejected') });
  try {
    const result = handler(context, ...args);
    return isThenable(result) ? Promise.resolve(result).then(undefined, failed) : result;
  } catch (error) {
    return failed(error);
  }
}

/** A requirement holds when each scheme it names returned something truthy that is no `{ error }`. */
function satisfied(requirement: Record<string, unknown>, results: Record<string, unknown>): boolean {
  for (const name of Object.keys(requirement)) {
    const result = results[name];
    if (!result) return false;
    if (typeof result === 'object' && (result as { error?: unknown }).error) return false;
  }
  return true;
}

export function compiledRequestHandler(api: OpenAPIBackend): (req: Request, ...args: unknown[]) => Promise<unknown> {
  const backend = api as unknown as Backend;
  const { router, validator } = api;
  const schemesOf = new WeakMap<Operation, string[]>();

  // Each step below asks for its hook first and calls the next step directly when none is
  // registered: a closure for `next` is made only where a hook runs before it (most are not
  // registered; a closure per step and request showed in /healthz's profile).
  /** The hook `hook`, then `next`: awaited only when the hook gives a promise. */
  function hooked<T>(hook: Handler, context: RouteContext, args: unknown[], next: () => T): T | Promise<T> {
    return afterwards(hook(context, ...args), next);
  }

  function routed(req: Request, context: RouteContext, args: unknown[]): unknown {
    const hook = backend.handlers.preRoutingHandler;
    return hook ? hooked(hook, context, args, () => matched(req, context, args)) : matched(req, context, args);
  }

  function matched(req: Request, context: RouteContext, args: unknown[]): unknown {
    const hooks = backend.handlers;
    let operation: Operation;
    try {
      operation = router.matchOperation(req, true) as Operation;
    } catch (error) {
      const answer = () => {
        let handler = hooks['404'] ?? hooks.notFound;
        if (error instanceof Error && error.message.startsWith('405')) handler = hooks['405'] ?? hooks.methodNotAllowed ?? handler;
        if (!handler) throw error;
        return handler(context, ...args);
      };
      const hook = hooks.postRoutingHandler;
      return hook ? hooked(hook, context, args, answer) : answer();
    }
    (context as unknown as LoopContext).routedTo(operation);
    // Registered by the service (api-backend.ts), synchronous: no closure unless it gives a promise.
    const hook = hooks.postRoutingHandler;
    const ran = hook ? hook(context, ...args) : undefined;
    return isThenable(ran) ? Promise.resolve(ran).then(() => secured(req, context, operation, args)) : secured(req, context, operation, args);
  }

  function secured(req: Request, context: RouteContext, operation: Operation, args: unknown[]): unknown {
    const requirements = (operation.security ?? []) as Array<Record<string, unknown>>;
    let schemes = schemesOf.get(operation);
    if (!schemes) {
      schemes = requirements.flatMap((requirement) => Object.keys(requirement));
      schemesOf.set(operation, schemes);
    }
    const results: Record<string, unknown> = {};
    if (schemes.length === 0) return authorized(req, context, operation, requirements, results, args);
    if (schemes.length === 1) {
      const name = schemes[0]!;
      const handler = backend.securityHandlers[name];
      const result = handler ? securityResult(handler, context, args) : undefined;
      return afterwards(result, (settled) => {
        results[name] = settled;
        return authorized(req, context, operation, requirements, results, args);
      });
    }
    for (const name of schemes) results[name] = undefined;
    return Promise.all(
      schemes.map(async (name) => {
        const handler = backend.securityHandlers[name];
        if (handler) results[name] = await securityResult(handler, context, args);
      }),
    ).then(() => authorized(req, context, operation, requirements, results, args));
  }

  function authorized(req: Request, context: RouteContext, operation: Operation, requirements: Array<Record<string, unknown>>, results: Record<string, unknown>, args: unknown[]): unknown {
    const hooks = backend.handlers;
    const authorized = requirements.some((requirement) => satisfied(requirement, results));
    context.security = { ...results, authorized } as RouteContext['security'];
    const hook = hooks.postSecurityHandler;
    return hook ? hooked(hook, context, args, () => afterSecurity(req, context, operation, authorized, requirements, args)) : afterSecurity(req, context, operation, authorized, requirements, args);
  }

  function afterSecurity(req: Request, context: RouteContext, operation: Operation, authorized: boolean, requirements: Array<Record<string, unknown>>, args: unknown[]): unknown {
    if (!authorized && requirements.length > 0) {
      const unauthorized = backend.handlers.unauthorizedHandler;
      if (unauthorized) return unauthorized(context, ...args);
      throw new Error(`401-unauthorized: ${operation.operationId} request did not satisfy security requirements and no unauthorizedHandler is registered`);
    }
    return validated(req, context, operation, args);
  }

  function validated(req: Request, context: RouteContext, operation: Operation, args: unknown[]): unknown {
    const hooks = backend.handlers;
    const validate = typeof backend.validate === 'function' ? backend.validate(context, ...args) : Boolean(backend.validate);
    if (validate) {
      context.validation = validator.validateRequest(req, operation);
      if (context.validation.errors) {
        const failed = hooks['400'] ?? hooks.validationFail;
        if (failed) return failed(context, ...args);
        throw new Error(`400-validationFail: ${operation.operationId} request failed validation and no validationFail handler is registered`);
      }
      if (validator.coerceTypes) context.request = coercedRequestOf(context.validation) ?? router.parseRequest(context.validation.coerced, operation);
    }
    const hook = hooks.preOperationHandler;
    return hook ? hooked(hook, context, args, () => operate(context, operation, args)) : operate(context, operation, args);
  }

  function operate(context: RouteContext, operation: Operation, args: unknown[]): unknown {
    const hooks = backend.handlers;
    const handler = hooks[operation.operationId!];
    if (!handler) {
      const notImplemented = hooks['501'] ?? hooks.notImplemented;
      if (!notImplemented) throw new Error(`501-notImplemented: ${operation.operationId} no handler registered`);
      return notImplemented(context, ...args);
    }
    return handler(context, ...args);
  }

  const handle = (req: Request, args: unknown[]): unknown => {
    const context = new LoopContext(api, router, req) as unknown as RouteContext;
    const response = routed(req, context, args);
    // Whatever answered: the operation, or a 404, 405, 401 or 400 handler.
    const postResponse = backend.handlers.postResponseHandler;
    if (!postResponse) return response;
    return afterwards(response, (settled) => {
      context.response = settled;
      return postResponse(context, ...args);
    });
  };

  // A promise, as the library's: the operation's own when it gave one (no further turn).
  return (req: Request, ...args: unknown[]) => {
    if (!backend.initialized) return backend.init().then(() => handle(req, args));
    try {
      const response = handle(req, args);
      return response instanceof Promise ? response : Promise.resolve(response);
    } catch (error) {
      return Promise.reject(error);
    }
  };
}
