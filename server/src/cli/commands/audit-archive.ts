// `audit archive --before DATE FILE`: the audit rows retention is about to remove, kept
// offline (audit/audit-archive.ts).
import { archiveAuditBefore, type ArchiveReport } from '../../audit/audit-archive.js';
import { required, UsageError, type Command } from '../command.js';

export const auditArchive: Command = {
  name: 'audit archive',
  summary:
    'Write the audit rows older than DATE (on PostgreSQL: the monthly partitions retention drops next) to FILE as gzip-compressed NDJSON, with FILE.sha256; patient data, created 0600, never overwritten.',
  usage: 'audit archive --before DATE FILE [--json]',
  options: { before: { type: 'string' } },
  positionals: 1,
  async run(args, cli) {
    const before = required(args, 'before');
    if (!/^\d{4}-\d{2}-\d{2}(T.*)?$/.test(before) || Number.isNaN(Date.parse(before))) throw new UsageError(`--before must be an ISO 8601 date, got "${before}"`);
    const file = args.positionals[0];
    if (!file) throw new UsageError('FILE is required: where to write the archive');
    return archiveAuditBefore(await cli.db(), new Date(before).toISOString(), file);
  },
  format: (r: ArchiveReport) =>
    [
      `${r.rows} audit rows before ${r.before} written to ${r.file} (${r.bytes} bytes, gzip NDJSON, mode 0600)`,
      `sha256 ${r.sha256} (in ${r.checksum_file}; check with sha256sum -c)`,
      ...(r.partitions.length > 0 ? [`whole partitions archived: ${r.partitions.join(', ')}`] : []),
    ].join('\n'),
};
