// Reading a search from a request: parameter types, modifiers, prefixes and precision, and
// what strict and lenient handling do with what the server does not support.
import { expect } from 'chai';
import { dateRange, readSearch, strictHandling } from '../../../../src/resources/r4/search/search-request.js';
import { R4_TYPES } from '../../../../src/resources/r4/r4-types.js';
import { ApiError } from '../../../../src/errors/api-error.js';

const patient = R4_TYPES.find((t) => t.type === 'Patient')!;
const observation = R4_TYPES.find((t) => t.type === 'Observation')!;

describe('reading an R4 search', () => {
  it('takes a date at its precision: a year, a month, a day, a minute, a second, milliseconds', () => {
    expect(dateRange('d', '1941')).to.deep.include({ prefix: 'eq', start: '1941-01-01T00:00:00.000Z', end: '1942-01-01T00:00:00.000Z' });
    expect(dateRange('d', 'ge1941-12')).to.deep.include({ prefix: 'ge', start: '1941-12-01T00:00:00.000Z', end: '1942-01-01T00:00:00.000Z' });
    expect(dateRange('d', 'lt2024-02-29')).to.deep.include({ start: '2024-02-29T00:00:00.000Z', end: '2024-03-01T00:00:00.000Z' });
    expect(dateRange('d', '2026-11-20T10:00+02:00')).to.deep.include({ start: '2026-11-20T08:00:00.000Z', end: '2026-11-20T08:01:00.000Z' });
    expect(dateRange('d', '2026-11-20T10:00:00Z').end).to.equal('2026-11-20T10:00:01.000Z');
    expect(dateRange('d', '2026-11-20T10:00:00.12Z').end).to.equal('2026-11-20T10:00:00.130Z');
    for (const bad of ['yesterday', 'sa2026-01-01', '2023-02-29', '2026-13', '1941-03-17T25:00Z']) expect(() => dateRange('d', bad), bad).to.throw(ApiError);
  });

  it('reads tokens, strings with their modifiers, references and OR lists; AND across parameters', () => {
    const search = readSearch(patient, [['identifier', 'http://hl7.org/fhir/sid/us-mbi|1EG4'], ['identifier', 'S-1'], ['family:exact', 'Núñez'], ['name', 'NÚÑ,ok']], false);
    expect(search.clauses.map((c) => c.kind)).to.deep.equal(['tokens', 'tokens', 'strings', 'strings']);
    expect(search.clauses[0]).to.deep.include({ tokens: [{ system: 'http://hl7.org/fhir/sid/us-mbi', code: '1EG4' }] });
    expect(search.clauses[1]).to.deep.include({ tokens: [{ code: 'S-1' }] });
    expect(search.clauses[2]).to.deep.include({ modifier: 'exact', values: ['Núñez'] });
    expect(search.clauses[3]).to.deep.include({ modifier: undefined, values: ['nun', 'ok'] });
    const references = readSearch(observation, [['subject:Patient', 'Patient/ABC,def']], false);
    expect(references.clauses[0]).to.deep.include({ kind: 'residents', ids: ['abc', 'def'] });
  });

  it('leaves out what it does not support, or refuses it naming the parameter when strict', () => {
    const pairs: Array<[string, string]> = [['name', 'ok'], ['address-city', 'x'], ['name:phonetic', 'x'], ['_sort', 'family'], ['_summary', 'data'], ['_include', 'Patient:organization']];
    const lenient = readSearch(patient, pairs, false);
    expect(lenient.applied).to.deep.equal([['name', 'ok']]);
    for (const pair of pairs.slice(1)) {
      try {
        readSearch(patient, [pair], true);
        expect.fail(`${pair[0]} should be refused`);
      } catch (error) {
        expect((error as ApiError).details[0]!.field, pair[0]).to.equal(`query.${pair[0]}`);
      }
    }
    expect(() => readSearch(patient, [['birthdate', 'soon']], false)).to.throw(ApiError);
    expect(() => readSearch(patient, [['_count', '201']], false)).to.throw(ApiError);
    // FHIR R4 search.html#count: _count=0 is _summary=count.
    expect(readSearch(patient, [['_count', '0']], false)).to.include({ summaryCount: true });
    // Found by the fuzzer on PostgreSQL, whose text type refuses U+0000: a 500 until refused here.
    expect(() => readSearch(patient, [['identifier', 'S-1\u0000']], false)).to.throw(ApiError, /NUL/);
  });

  it('gives the same search the same fingerprint, and another search another one', () => {
    const a = readSearch(observation, [['code', '8867-4'], ['_count', '2']], false);
    expect(readSearch(observation, [['code', '8867-4'], ['_count', '2'], ['_cursor', 'x']], false).fingerprint).to.equal(a.fingerprint);
    expect(readSearch(observation, [['code', '8310-5'], ['_count', '2']], false).fingerprint).to.not.equal(a.fingerprint);
  });

  it('reads Prefer: handling=strict, lenient by default', () => {
    expect(strictHandling('handling=strict')).to.equal(true);
    expect(strictHandling('return=minimal, handling=strict')).to.equal(true);
    expect(strictHandling('handling=lenient')).to.equal(false);
    expect(strictHandling(undefined)).to.equal(false);
  });
});
