// A change is checked before anything is read: a NUL anywhere in the resource (PostgreSQL text
// cannot hold one, and no FHIR string may) rejects it, in a value or in a key, however deep;
// the six characters `\u0000` written as text are not a NUL and pass.
import { expect } from 'chai';
import { prepare } from '../../src/ingest/prepared-change.js';
import type { ResourceChange } from '../../src/ingest/change-set.js';

const observation = (extra: Record<string, unknown>): ResourceChange => ({
  resource: { resourceType: 'Observation', status: 'final', code: { coding: [{ system: 'http://loinc.org', code: '2345-7' }] }, subject: { reference: 'Patient?identifier=https://ehr.example/mrn|M-1' }, effectiveDateTime: '2026-01-15T07:00:00Z', ...extra },
  at: 'entry',
});

describe('a change prepared before anything is read', () => {
  it('rejects a NUL in a value, however deep, and in a key', () => {
    for (const extra of [{ valueString: 'glu\u0000cose' }, { note: [{ text: 'ok' }, { text: 'a\u0000' }] }, { extension: [{ url: 'https://x.example', 'value\u0000String': 'x' }] }]) {
      const prepared = prepare(observation(extra), 0);
      expect(prepared.issue, JSON.stringify(extra)).to.deep.include({ code: 'value', diagnostics: 'FHIR strings may not contain the NUL character' });
    }
  });

  it('passes the text \\u0000 written out, which is not a NUL', () => {
    const prepared = prepare(observation({ valueString: 'escaped as \\u0000 in the source' }), 0);
    expect(prepared.issue).to.equal(undefined);
    expect(prepared.columns).to.be.an('object');
  });
});
