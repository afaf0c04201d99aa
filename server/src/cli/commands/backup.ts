// `backup FILE`: an online, verified copy of the SQLite database, safe while the service runs.
import { sqlitePath } from '../../config/config.js';
import { backupSqlite, type BackupReport } from '../../db/online-backup.js';
import type { Command } from '../command.js';

export const backup: Command = {
  name: 'backup',
  summary: 'Copy the SQLite database to FILE while the service runs (SQLite online backup, verified). On PostgreSQL use pg_dump.',
  usage: 'backup FILE [--json]',
  options: {},
  positionals: 1,
  async run(args, cli) {
    const source = sqlitePath(cli.config.databaseUrl);
    if (source === null) {
      throw new Error('backup copies the embedded SQLite database; on PostgreSQL use its own tools: pg_dump --format=custom --file=FILE "$DATABASE_URL" (restore with pg_restore), or base backups with WAL archiving for point-in-time recovery. See docs/operators/retention-and-backup.md, "Backups".');
    }
    if (source === ':memory:') throw new Error('an in-memory database cannot be backed up');
    // The development key lives beside the database: without it the copy's signing secrets are lost.
    const developmentKey = cli.config.webhooks.encryptionKey === undefined;
    const report = await backupSqlite(source, args.positionals[0]!, { copyDevelopmentKey: developmentKey });
    const keyNote = report.key_file
      ? `the development webhook key was copied to ${report.key_file}: keep it with the backup`
      : developmentKey
        ? 'no development webhook key beside the database yet (the service creates it at its first start): nothing to copy'
        : 'signing secrets in the copy need the same WEBHOOK_ENCRYPTION_KEY: keep that key in your secret store';
    return { ...report, key_note: keyNote };
  },
  format: (r: BackupReport & { key_note: string }) => [`backed up ${r.database} to ${r.file} (${r.bytes} bytes, ${r.pages} pages, integrity ok, ${r.duration_ms} ms)`, r.key_note].join('\n'),
};
