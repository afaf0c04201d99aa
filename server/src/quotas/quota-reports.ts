// Once a minute: which credentials their quota refused, for operators. One log line per such
// client (its client_id, never anything about a request) and a gauge of how many there were;
// metrics carry no client label (metrics/service-metrics.ts). Idle buckets are forgotten too.
import type { Logger } from '../logging/logger.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { ClientQuotas } from './client-quotas.js';

export const QUOTA_REPORT_INTERVAL_MS = 60_000;

export function startQuotaReports(quotas: ClientQuotas, logger: Logger, metrics: ServiceMetrics, intervalMs = QUOTA_REPORT_INTERVAL_MS): () => void {
  const report = () => {
    const refused = quotas.takeRefused();
    metrics.clientsOverQuota.set(refused.length);
    for (const client of refused) logger.warn({ client_id: client.clientId, refused: client.refused, minutes: intervalMs / 60_000 }, 'client over its request quota');
    quotas.forgetIdle();
  };
  const timer = setInterval(report, intervalMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    report();
  };
}
