// Liveness and readiness probes for operators and orchestrators.
import type { PublicOperationHandler } from './operation.js';

export const healthOperations: Record<string, PublicOperationHandler> = {
  getHealth: async () => ({ body: { status: 'ok' } }),
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
