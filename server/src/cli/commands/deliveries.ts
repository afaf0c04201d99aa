// Operators' view of webhook deliveries: list them (failed ones especially), show one with
// every attempt, and re-queue one (same delivery id, same body bytes, fresh retry schedule).
import { attemptsOf, DELIVERY_STATUSES, findDelivery, listDeliveries, redeliver, RedeliveryRefused, type AttemptRecord, type DeliveryRecord, type DeliveryStatus } from '../../webhooks/delivery-store.js';
import { isUuid } from '../../db/uuid.js';
import { positiveInteger, uuidOption, UsageError, type Command, type ParsedArgs } from '../command.js';


function deliveryIdArgument(args: ParsedArgs): string {
  const id = args.positionals[0]!;
  if (!isUuid(id)) throw new UsageError(`DELIVERY_ID must be a UUID, got "${id}"`);
  return id.toLowerCase();
}

function line(d: DeliveryRecord): string {
  const last = d.last_error ? `${d.last_error}${d.last_status ? ` ${d.last_status}` : ''}` : d.last_status ? String(d.last_status) : '-';
  const next = d.next_attempt_at ? `next ${d.next_attempt_at}` : d.lease_until ? `in flight until ${d.lease_until}` : '';
  return `${d.id}  ${d.status.padEnd(9)} ${d.event_type.padEnd(26)} attempts ${String(d.attempts).padEnd(3)} last ${last.padEnd(16)} ${next}`.trimEnd();
}

export const deliveriesList: Command = {
  name: 'deliveries list',
  summary: "List an organization's webhook deliveries, newest first.",
  usage: `deliveries list --org ORG [--status ${DELIVERY_STATUSES.join('|')}] [--subscription ID] [--limit N] [--json]`,
  options: { org: { type: 'string' }, status: { type: 'string' }, subscription: { type: 'string' }, limit: { type: 'string' } },
  async run(args, cli) {
    const status = args.values.status as string | undefined;
    if (status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(status)) {
      throw new UsageError(`--status must be one of ${DELIVERY_STATUSES.join(', ')}; got "${status}"`);
    }
    const deliveries = await listDeliveries(await cli.db(), {
      orgId: uuidOption(args, 'org'),
      status: status as DeliveryStatus | undefined,
      subscriptionId: args.values.subscription === undefined ? undefined : uuidOption(args, 'subscription'),
      limit: positiveInteger(args, 'limit', 1000),
    });
    return { deliveries };
  },
  format: (r: { deliveries: DeliveryRecord[] }) => r.deliveries.map(line).join('\n') || '(no deliveries)',
};

export const deliveriesShow: Command = {
  name: 'deliveries show',
  summary: 'Show one delivery and every attempt made (time, status, duration, error class).',
  usage: 'deliveries show DELIVERY_ID [--json]',
  options: {},
  positionals: 1,
  async run(args, cli) {
    const db = await cli.db();
    const id = deliveryIdArgument(args);
    const delivery = await findDelivery(db, id);
    if (!delivery) throw new Error(`no delivery ${id}`);
    return { delivery, attempts: await attemptsOf(db, id) };
  },
  format: (r: { delivery: DeliveryRecord; attempts: AttemptRecord[] }) =>
    [
      line(r.delivery),
      ...r.attempts.map((a) => `  #${a.attempt}  ${a.started_at}  ${a.response_status ?? '-'}  ${a.duration_ms === null ? '-' : `${a.duration_ms} ms`}  ${a.error_class ?? 'ok'}`),
    ].join('\n'),
};

export const deliveriesRedeliver: Command = {
  name: 'deliveries redeliver',
  summary: 'Re-queue a failed (or delivered) delivery: same id and body, due now, fresh retry schedule.',
  usage: 'deliveries redeliver DELIVERY_ID [--json]',
  options: {},
  positionals: 1,
  async run(args, cli) {
    try {
      return await redeliver(await cli.db(), deliveryIdArgument(args));
    } catch (error) {
      // A refusal is the operator's answer, not a crash: exit 1 with the reason.
      if (error instanceof RedeliveryRefused) throw new Error(error.message);
      throw error;
    }
  },
  format: (d: DeliveryRecord) => `delivery ${d.id} re-queued (${d.status}, due ${d.next_attempt_at})`,
};
