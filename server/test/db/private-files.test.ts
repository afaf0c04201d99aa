// Files at rest: the SQLite database, its -wal and -shm, the development webhook key and every
// backup are created 0600 whatever the umask, and the service warns at start-up when an
// existing database file is readable by other users. (SQLite files only: PostgreSQL keeps
// its data in its own server.)
import { expect } from 'chai';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testDatabaseKind } from '../../../test/support/database.js';
import { startTestService } from '../../../test/support/service.js';
import { call } from '../../../test/support/http.js';
import { backupSqlite } from '../../src/db/online-backup.js';

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('files at rest', function () {
  this.timeout(60_000);
  let folder: string;
  let umask: number;

  before(function () {
    if (testDatabaseKind !== 'sqlite') this.skip();
    folder = mkdtempSync(join(tmpdir(), 'ofctx-modes-'));
    umask = process.umask();
  });
  after(() => {
    if (umask !== undefined) process.umask(umask);
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  for (const mask of [0o022, 0o000, 0o077]) {
    it(`creates the database, its -wal and -shm, the key file and backups 0600 under umask ${mask.toString(8).padStart(3, '0')}`, async () => {
      process.umask(mask);
      const file = join(folder, `umask-${mask}.db`);
      // Without WEBHOOK_ENCRYPTION_KEY: the development key file beside the database.
      const service = await startTestService({ database: { url: `sqlite:${file}`, drop: async () => undefined } as never, env: { WEBHOOK_ENCRYPTION_KEY: '' } });
      try {
        const org = await service.seed.org();
        const facility = await service.seed.facility(org.id);
        await service.seed.data({ orgId: org.id, facilityId: facility.id, residents: 3 });
        expect((await call(service.baseUrl, 'GET', '/healthz')).status).to.be.oneOf([200, 503]);
        for (const path of [file, `${file}-wal`, `${file}-shm`, `${file}.webhook-key`]) {
          expect(existsSync(path), path).to.equal(true);
          expect(modeOf(path).toString(8), path).to.equal('600');
        }
        const report = await backupSqlite(file, join(folder, `backup-${mask}.db`), { copyDevelopmentKey: true });
        expect(modeOf(report.file).toString(8)).to.equal('600');
        expect(report.key_file, 'the development key is copied beside the backup').to.be.a('string');
        expect(modeOf(report.key_file!).toString(8)).to.equal('600');
        expect(service.logs()).to.not.contain('readable by other users');
      } finally {
        await service.close();
      }
    });
  }

  it('warns at start-up when an existing database file is readable by others', async () => {
    process.umask(0o022);
    const file = join(folder, 'open.db');
    writeFileSync(file, '');
    chmodSync(file, 0o644);
    const service = await startTestService({ database: { url: `sqlite:${file}`, drop: async () => undefined } as never });
    try {
      expect(service.logs()).to.contain('readable by other users');
      expect(service.logs()).to.contain(file);
      // An existing file keeps its mode: the operator decides.
      expect(modeOf(file).toString(8)).to.equal('644');
    } finally {
      await service.close();
    }
  });
});
