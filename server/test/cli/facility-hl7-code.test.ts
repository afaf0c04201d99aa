// `ops facility create --hl7-code` and `ops facility update FAC --hl7-code`: the code an ADT
// feed names the facility by, unique across the service, written as senders write it
// (spaces and punctuation, up to 227 characters), without HL7 delimiters.
import { expect } from 'chai';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { jsonOf, runOps } from '../../../test/support/ops-cli.js';
import { openDatabase } from '../../src/db/database.js';

describe('ops facility HL7 codes', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let env: Record<string, string>;
  before(async () => {
    database = await createTestDatabase();
    env = { DATABASE_URL: database.url };
  });
  after(async () => database?.drop());

  it('creates a facility with a code, moves the code, refuses a taken or malformed one, and clears it', async () => {
    const org = jsonOf(await runOps(['org', 'create', '--name', 'HL7 Org', '--json'], env));
    const maple = jsonOf(await runOps(['facility', 'create', '--org', org.id, '--name', 'Maple', '--hl7-code', 'MAPLE', '--json'], env));
    expect(maple).to.include({ org_id: org.id, name: 'Maple', hl7_code: 'MAPLE' });
    const river = jsonOf(await runOps(['facility', 'create', '--org', org.id, '--name', 'River', '--json'], env));
    const taken = await runOps(['facility', 'update', river.id, '--hl7-code', 'MAPLE', '--json'], env);
    expect(taken.code).to.equal(2);
    expect(taken.stderr).to.include(`already names facility ${maple.id}`);
    const dup = await runOps(['facility', 'create', '--org', org.id, '--name', 'Dup', '--hl7-code', 'MAPLE', '--json'], env);
    expect(dup.code).to.equal(2);
    const bad = await runOps(['facility', 'update', river.id, '--hl7-code', 'RIVER|SIDE', '--json'], env);
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.include('HL7 code');
    expect(jsonOf(await runOps(['facility', 'update', river.id, '--hl7-code', 'RIVER', '--json'], env))).to.include({ id: river.id, hl7_code: 'RIVER' });
    expect(jsonOf(await runOps(['facility', 'update', maple.id, '--hl7-code', '', '--json'], env))).to.include({ id: maple.id, hl7_code: null });
    expect(jsonOf(await runOps(['facility', 'update', river.id, '--hl7-code', 'MAPLE', '--json'], env))).to.include({ hl7_code: 'MAPLE' });
  });

  it('takes codes as senders write them: spaces, punctuation, letters beyond ASCII, up to 227 characters, matched exactly', async () => {
    const org = jsonOf(await runOps(['org', 'create', '--name', 'Spaces Org', '--json'], env));
    const good = jsonOf(await runOps(['facility', 'create', '--org', org.id, '--name', 'Good Health', '--hl7-code', 'GOOD HEALTH HOSPITAL', '--json'], env));
    expect(good.hl7_code).to.equal('GOOD HEALTH HOSPITAL');
    const other = jsonOf(await runOps(['facility', 'create', '--org', org.id, '--name', 'Other', '--json'], env));
    for (const code of ["St. Mary's (East) #2", 'Hôpital Saint-Jean', 'MN Public Health Lab', 'good health hospital', 'L'.repeat(227)]) {
      expect(jsonOf(await runOps(['facility', 'update', other.id, '--hl7-code', code, '--json'], env)), code).to.include({ hl7_code: code });
    }
  });

  it('refuses HL7 delimiters, line breaks, whitespace at either end and codes over 227 characters, before creating anything', async () => {
    const org = jsonOf(await runOps(['org', 'create', '--name', 'Refusals Org', '--json'], env));
    const plain = jsonOf(await runOps(['facility', 'create', '--org', org.id, '--name', 'Plain', '--json'], env));
    const refusals: Array<[string, string]> = [
      ['A|B', 'delimiters'], ['A^B', 'delimiters'], ['A~B', 'delimiters'], ['A\\B', 'delimiters'], ['A&B', 'delimiters'],
      ['A\rB', 'control characters'], ['A\nB', 'control characters'], ['A\tB', 'control characters'],
      [' GOOD', 'whitespace'], ['GOOD ', 'whitespace'], ['   ', 'whitespace'],
      ['L'.repeat(228), 'at most 227'],
    ];
    for (const [code, why] of refusals) {
      const update = await runOps(['facility', 'update', plain.id, '--hl7-code', code, '--json'], env);
      expect(update.code, JSON.stringify(code)).to.equal(2);
      expect(update.stderr, JSON.stringify(code)).to.include(why);
    }
    const create = await runOps(['facility', 'create', '--org', org.id, '--name', 'Refused', '--hl7-code', 'BAD|CODE', '--json'], env);
    expect(create.code).to.equal(2);
    const db = openDatabase(database.url);
    const names = (await db('facilities').where({ org_id: org.id }).select('name')).map((f: { name: string }) => f.name);
    expect(names).to.deep.equal(['Plain']);
    expect((await db('facilities').where({ id: plain.id }).first('hl7_code')).hl7_code).to.equal(null);
    await db.destroy();
  });
});
