// `audit writes`: the ingest audit trail, what the systems of record wrote (ingest/ingest-writes.ts).
import { isUuid } from '../../db/uuid.js';
import { queryIngestWrites, type IngestWrite } from '../../ingest/ingest-writes.js';
import { positiveInteger, uuidOption, UsageError, type Command } from '../command.js';

export const auditWrites: Command = {
  name: 'audit writes',
  summary: 'Read the write trail of an organization: every row a system of record (or ops import, or seed) created or updated.',
  usage: 'audit writes --org ORG [--resource ID] [--actor CLIENT_ID|ops-cli|seed] [--since ISO] [--limit N] [--json]',
  options: { org: { type: 'string' }, resource: { type: 'string' }, actor: { type: 'string' }, since: { type: 'string' }, limit: { type: 'string' } },
  async run(args, cli) {
    const since = args.values.since as string | undefined;
    if (since !== undefined && Number.isNaN(Date.parse(since))) throw new UsageError(`--since must be an ISO 8601 time, got "${since}"`);
    const resource = args.values.resource as string | undefined;
    if (resource !== undefined && !isUuid(resource)) throw new UsageError(`--resource must be a UUID, got "${resource}"`);
    const writes = await queryIngestWrites(await cli.db(), {
      orgId: uuidOption(args, 'org'),
      resourceId: resource?.toLowerCase(),
      actor: args.values.actor as string | undefined,
      since: since === undefined ? undefined : new Date(since).toISOString(),
      limit: positiveInteger(args, 'limit', 10_000),
    });
    return { writes };
  },
  format: (r: { writes: IngestWrite[] }) =>
    r.writes.map((w) => `${w.at}  ${w.actor}  ${w.outcome.padEnd(7)}  ${w.resource_type}/${w.resource_id}  v${w.version_id}  ${w.request_id ?? '-'}`).join('\n') || '(no writes recorded)',
};
