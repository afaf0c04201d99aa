// Generated request ids: UUID-shaped (version 4 layout, as before), and never twice the same
// within a process.
import { expect } from 'chai';
import { generatedRequestId } from '../../src/http/request-id.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('generated request ids', () => {
  it('are UUIDs in the version 4 layout, all distinct over many requests', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 100_000; i++) {
      const id = generatedRequestId();
      if (i % 997 === 0) expect(id).to.match(UUID_V4);
      ids.add(id);
    }
    expect(ids.size).to.equal(100_000);
  });
});
