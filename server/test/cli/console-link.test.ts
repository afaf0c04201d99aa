// `ops console link`: a one-time sign-in link to an organization's console, printed once.
import { expect } from 'chai';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { jsonOf, runOps } from '../../../test/support/ops-cli.js';
import { openDatabase } from '../../src/db/database.js';
import { sha256Hex } from '../../src/auth/random-token.js';

describe('ops console link', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let env: Record<string, string>;
  before(async () => {
    database = await createTestDatabase();
    env = { DATABASE_URL: database.url, HOST: '0.0.0.0', PORT: '8443' };
  });
  after(async () => database?.drop());

  it('prints a link to the sign-in page with a token stored only as its hash, expiring as asked', async () => {
    const org = jsonOf(await runOps(['org', 'create', '--name', 'Console Org', '--json'], env));
    const before = Date.now();
    const link = jsonOf(await runOps(['console', 'link', '--org', org.id, '--ttl', '10m', '--operator', 'Ana Ruiz', '--json'], env));
    expect(link.url).to.match(/^http:\/\/127\.0\.0\.1:8443\/console\/sign-in\?token=ocl_[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(link.expires_at) - before).to.be.within(9.5 * 60_000, 10.5 * 60_000);
    const token = new URL(link.url).searchParams.get('token')!;
    const db = openDatabase(database.url);
    try {
      const rows = await db('console_links').where({ org_id: org.id }).select();
      expect(rows).to.have.length(1);
      expect(rows[0]).to.include({ token_hash: sha256Hex(token), operator: 'Ana Ruiz', used_at: null });
      expect(JSON.stringify(rows)).not.to.include(token.slice(4));
    } finally {
      await db.destroy();
    }
    const human = await runOps(['console', 'link', '--org', org.id], { ...env, PUBLIC_BASE_URL: 'https://ofctx.example.org' });
    expect(human.code).to.equal(0);
    expect(human.stdout).to.match(/^https:\/\/ofctx\.example\.org\/console\/sign-in\?token=ocl_\S+\n\(single use; expires /);
  });

  it('refuses a bad --ttl (exit 2) and an unknown organization (exit 1)', async () => {
    const org = jsonOf(await runOps(['org', 'create', '--name', 'Other Org', '--json'], env));
    const long = await runOps(['console', 'link', '--org', org.id, '--ttl', '2d'], env);
    expect(long.code).to.equal(2);
    expect(long.stderr).to.include('--ttl must be a duration');
    const unknown = await runOps(['console', 'link', '--org', '0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21'], env);
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.include('no organization');
  });
});
