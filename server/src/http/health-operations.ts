// Liveness and readiness probes for operators and orchestrators.
import type { Knex } from 'knex';
import type { PublicOperationHandler } from './operation.js';
import { RenderedJson } from './rendered-json.js';

// Liveness is asked often (orchestrators, load balancers) and its answer never changes:
// serialized once.
const ALIVE = RenderedJson.of({ status: 'ok' });

/** What the probes read of the running service. */
interface ProbedService {
  accepting: boolean;
  db: Knex;
}

export const healthOperations: Record<string, PublicOperationHandler<ProbedService>> = {
  getHealth: async () => ({ body: ALIVE }),
  getReadiness: async ({ app }) => {
    if (!app.accepting) return { status: 503, body: { status: 'unavailable' } };
    try {
      await app.db.raw('select 1');
      return { body: { status: 'ok' } };
    } catch {
      return { status: 503, body: { status: 'unavailable' } };
    }
  },
};
