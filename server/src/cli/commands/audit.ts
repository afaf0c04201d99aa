import { AuditTrail, type AuditRecord } from '../../audit/audit-trail.js';
import { positiveInteger, uuidOption, UsageError, type Command } from '../command.js';

export const audit: Command = {
  name: 'audit',
  summary: "Read the access trail of an organization's patient data.",
  usage: 'audit --org ORG [--client CLIENT_ID] [--since ISO] [--limit N] [--json]',
  options: { org: { type: 'string' }, client: { type: 'string' }, since: { type: 'string' }, limit: { type: 'string' } },
  async run(args, cli) {
    const since = args.values.since as string | undefined;
    if (since !== undefined && Number.isNaN(Date.parse(since))) throw new UsageError(`--since must be an ISO 8601 time, got "${since}"`);
    const events = await new AuditTrail(await cli.db()).query({
      orgId: uuidOption(args, 'org'),
      clientId: args.values.client as string | undefined,
      since: since === undefined ? undefined : new Date(since).toISOString(),
      limit: positiveInteger(args, 'limit', 10_000),
    });
    return { events };
  },
  format: (r: { events: AuditRecord[] }) =>
    r.events.map((e) => `${e.at}  ${e.client_id ?? '-'}  ${e.operation}  ${e.status}  ${e.result_count} resource(s)  ${e.request_id}`).join('\n') || '(no access recorded)',
};
