// A statement's text compiled by knex once, each call binding its own values: the same text
// and bindings as knex compiling the builder at every call.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { compileOnlyKnexes } from '../../../test/support/compile-only-knex.js';
import { statementTemplate } from '../../src/db/statement-template.js';

const dialects = compileOnlyKnexes();

describe('a statement template', () => {
  after(async () => {
    for (const [, db] of dialects) await db.destroy();
  });

  for (const [name, db] of dialects) {
    it(`gives knex's own text and bindings, its constants kept in place (${name})`, () => {
      const build = (k: Knex, orgId: string, facilityId: string, after: number) =>
        k('webhook_subscriptions as s').join('clients as c', 'c.id', 's.client_pk').where({ 's.org_id': orgId, 's.status': 'active' }).andWhere('s.facility_id', facilityId).andWhere('s.seq', '>', after).select('s.id');
      const template = statementTemplate(build);
      const calls: Array<[string, string, number]> = [['o-1', 'f-1', 5], ['o-2', 'f-2', 7]];
      for (const values of calls) {
        const compiled = build(db, ...values).toSQL();
        expect(template(db, ...values)).to.deep.equal({ sql: compiled.sql, bindings: compiled.bindings });
      }
    });

    it(`compiles once per number of values, so a list's length picks its text (${name})`, () => {
      let compiles = 0;
      const template = statementTemplate((k: Knex, orgId: string, ...values: string[]) => {
        compiles++;
        return k('resource_identifiers').where({ org_id: orgId }).whereIn('value', values).select('resource_id');
      });
      template(db, 'o', 'a');
      template(db, 'o', 'b');
      const three = template(db, 'o', 'x', 'y', 'z');
      template(db, 'o', 'u', 'v', 'w');
      expect(compiles).to.equal(2);
      // A long list is compiled at each call, its text not kept.
      const many = Array.from({ length: 100 }, (_, i) => `v${i}`);
      expect(template(db, 'o', ...many).bindings).to.deep.equal(['o', ...many]);
      template(db, 'o', ...many);
      expect(compiles).to.equal(4);
      expect(three).to.deep.equal({ sql: db('resource_identifiers').where({ org_id: 'o' }).whereIn('value', ['x', 'y', 'z']).select('resource_id').toSQL().sql, bindings: ['o', 'x', 'y', 'z'] });
    });
  }

  it('refuses a builder that writes a value into its text instead of binding it', () => {
    const [, db] = dialects[0]!;
    const template = statementTemplate((k: Knex, code: string) => k('facilities').whereRaw(`hl7_code = '${code}'`).select('id'));
    expect(() => template(db, 'X')).to.throw(/bind each of its values/);
  });

  it('refuses a value knex reads instead of binding (a limit)', () => {
    const [, db] = dialects[0]!;
    const template = statementTemplate((k: Knex, limit: number) => k('facilities').limit(limit).select('id'));
    expect(() => template(db, 5)).to.throw(/bind each of its values/);
  });

  it('refuses a builder that drops one of its values', () => {
    const [, db] = dialects[0]!;
    const template = statementTemplate((k: Knex, id: string, _unused: string) => k('facilities').where({ id }).select('id'));
    expect(() => template(db, 'a', 'b')).to.throw(/bind each of its values/);
  });
});
