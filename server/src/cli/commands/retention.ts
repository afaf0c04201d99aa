// `purge`: applies the retention periods now (the service also does it in the background).
import { purgeExpired, type PurgeReport } from '../../retention/purge-expired.js';
import type { Command } from '../command.js';

export const purge: Command = {
  name: 'purge',
  summary:
    'Delete audit rows older than AUDIT_RETENTION_DAYS, webhook history older than DELIVERY_RETENTION_DAYS, events older than EVENT_RETENTION_DAYS and inbound messages older than MESSAGE_RETENTION_DAYS: on PostgreSQL whole time partitions past the cut-off are dropped, the rest in small batches.',
  usage: 'purge [--json]',
  options: {},
  async run(_args, cli) {
    const report = await purgeExpired(await cli.db(), cli.config.retention, { pause: () => new Promise((resolve) => setTimeout(resolve, 5)) });
    return { ...report, retention_days: { audit_events: cli.config.retention.auditDays, webhook_history: cli.config.retention.deliveryDays, webhook_events: cli.config.retention.eventDays, inbound_messages: cli.config.retention.messageDays } };
  },
  format: (r: PurgeReport) =>
    [
      `audit rows before ${r.cutoffs.audit_events}: ${r.removed.audit_events} removed (and ${r.removed.audit_texts} texts no row names any more)`,
      `webhook history before ${r.cutoffs.webhook_history}: ${r.removed.webhook_deliveries} deliveries, ${r.removed.webhook_delivery_attempts} attempts removed`,
      `events before ${r.cutoffs.webhook_events} that no delivery kept: ${r.removed.webhook_events} removed`,
      `inbound messages before ${r.cutoffs.inbound_messages}: ${r.removed.inbound_messages} removed`,
      ...(r.partitions_dropped.length === 0
        ? []
        : [
            `partitions dropped: ${r.partitions_dropped.length}`,
            ...r.partitions_dropped.map((p) => `  ${p.partition} (${p.table}, ${p.from} to ${p.to}, about ${p.approximate_rows} rows)`),
          ]),
    ].join('\n'),
};
