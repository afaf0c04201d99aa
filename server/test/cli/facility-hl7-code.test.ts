// `ops facility create --hl7-code` and `ops facility update FAC --hl7-code`: the code an ADT
// feed names the facility by, unique across the service.
import { expect } from 'chai';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { jsonOf, runOps } from '../../../test/support/ops-cli.js';

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
});
