// `event emit`: queue an event by hand, for operators (tests of a receiver, a replay). Real
// events come from the data: every change a system of record writes through ingestion emits
// its own, in the same transaction (ingest/apply-change-set.ts). Deliveries are written with the event in one transaction; a running server picks
// them up at once on PostgreSQL (NOTIFY) or at its next poll on SQLite.
import { emitEvent, InvalidEvent, type EmittedEvent } from '../../webhooks/event-outbox.js';
import { EVENT_TYPES } from '../../db/event-types.js';
import { required, uuidOption, UsageError, type Command } from '../command.js';

export const eventEmit: Command = {
  name: 'event emit',
  summary: 'MANUAL: queue an event by hand for every subscription that wants it (real events come from ingested changes).',
  usage: 'event emit --org ORG --facility FAC --type TYPE --resident RID [--occurred-at ISO] [--json]',
  options: { org: { type: 'string' }, facility: { type: 'string' }, type: { type: 'string' }, resident: { type: 'string' }, 'occurred-at': { type: 'string' } },
  async run(args, cli) {
    const input = {
      orgId: uuidOption(args, 'org'),
      facilityId: uuidOption(args, 'facility'),
      residentId: uuidOption(args, 'resident'),
      type: required(args, 'type'),
      occurredAt: args.values['occurred-at'] as string | undefined,
    };
    if (!EVENT_TYPES.some((t) => t.event_type === input.type)) {
      throw new UsageError(`--type must be one of ${EVENT_TYPES.map((t) => t.event_type).join(', ')}; got "${input.type}"`);
    }
    try {
      return await emitEvent(await cli.db(), input);
    } catch (error) {
      if (error instanceof InvalidEvent) throw new UsageError(error.message);
      throw error;
    }
  },
  format: (r: EmittedEvent) => `event ${r.event_id} queued for ${r.deliveries} subscription(s)`,
};
