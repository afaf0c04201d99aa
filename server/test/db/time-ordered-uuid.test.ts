// Time-ordered ids (UUID version 7) for the rows written in a stream: the same form as every
// other id, their creation millisecond in front, so later ids sort after earlier ones.
import { expect } from 'chai';
import { isUuid, timeOrderedUuid } from '../../src/db/uuid.js';

describe('time-ordered UUIDs', () => {
  it('are version 7, variant 10, in the service\'s one id form', () => {
    for (let i = 0; i < 1000; i++) {
      const id = timeOrderedUuid();
      expect(isUuid(id)).to.equal(true);
      expect(id).to.equal(id.toLowerCase());
      expect(id[14]).to.equal('7');
      expect('89ab').to.include(id[19]!);
    }
  });

  it('carry their creation millisecond in the first 48 bits', () => {
    const at = Date.parse('2026-11-23T12:34:56.789Z');
    const id = timeOrderedUuid(at);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).to.equal(at);
  });

  it('sort after the ids of earlier milliseconds, whatever their random bits', () => {
    const earlier = Array.from({ length: 200 }, () => timeOrderedUuid(1_700_000_000_000));
    const later = Array.from({ length: 200 }, () => timeOrderedUuid(1_700_000_000_001));
    expect(earlier.every((a) => later.every((b) => a < b))).to.equal(true);
  });

  it('differ from each other within one millisecond (74 random bits)', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => timeOrderedUuid(1_700_000_000_000)));
    expect(ids.size).to.equal(10_000);
  });
});
