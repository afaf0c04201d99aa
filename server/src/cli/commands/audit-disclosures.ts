// `audit disclosures`: the accounting of disclosures of one resident (audit/disclosures.ts),
// as a privacy officer hands it to the resident: JSON, CSV or text.
import { disclosuresCsv, disclosuresOfResident, type DisclosureRecord } from '../../audit/disclosures.js';
import { uuidOption, UsageError, type Command, type ParsedArgs } from '../command.js';

/** --from / --to: a date (its whole UTC day) or an instant with a zone. */
function bound(args: ParsedArgs, name: 'from' | 'to'): string | undefined {
  const raw = args.values[name];
  if (raw === undefined) return undefined;
  const value = String(raw);
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const ms = Date.parse(day ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(ms) || (!day && !/(Z|[+-]\d{2}:\d{2})$/.test(value))) throw new UsageError(`--${name} must be a date YYYY-MM-DD or an ISO 8601 time with a zone, got "${value}"`);
  // --to DATE includes that day.
  return new Date(day && name === 'to' ? ms + 86_400_000 : ms).toISOString();
}

export const auditDisclosures: Command = {
  name: 'audit disclosures',
  summary: "Every disclosure of one resident's data to a partner, oldest first: API reads and lists that returned the resident's records, and webhook deliveries of events about the resident.",
  usage: 'audit disclosures --org ORG --resident ID [--from DATE] [--to DATE] [--json | --csv]',
  options: { org: { type: 'string' }, resident: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, csv: { type: 'boolean' } },
  async run(args, cli) {
    const query = { orgId: uuidOption(args, 'org'), residentId: uuidOption(args, 'resident'), from: bound(args, 'from'), to: bound(args, 'to') };
    // An empty period would print "(no disclosures)", as if the resident had none.
    if (query.from !== undefined && query.to !== undefined && query.from >= query.to) throw new UsageError(`--from must be before --to: the period from ${query.from} to ${query.to} is empty`);
    if (args.values.csv && args.values.json) throw new UsageError('give --json or --csv, not both');
    const disclosures = await disclosuresOfResident(await cli.db(), query);
    return args.values.csv ? { csv: disclosuresCsv(disclosures) } : { disclosures };
  },
  format: (r: { disclosures?: DisclosureRecord[]; csv?: string }) =>
    r.csv !== undefined
      ? r.csv.replace(/\r\n$/, '')
      : r.disclosures!.map((d) => `${d.at}  ${d.channel.padEnd(7)} ${d.client_id} (${d.client_name ?? '?'})  ${d.purpose}  ${d.operation}  ${d.resource_types.join(',')} ${d.resource_ids.join(',')}`).join('\n') ||
        '(no disclosures)',
};
