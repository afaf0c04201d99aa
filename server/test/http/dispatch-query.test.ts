// Query strings parsed once per distinct string (http/dispatch.ts queryOf): the same string
// gives the same values, each request its own copy (validation coerces values in place, so
// nothing one request does to its query reaches the next).
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { queryOf } from '../../src/http/dispatch.js';

function requestWith(querystring: string, parsed: Record<string, string | string[]>) {
  let parses = 0;
  return {
    ctx: {
      querystring,
      get query() {
        parses++;
        return parsed;
      },
    },
    parses: () => parses,
  };
}

describe('the query of a dispatched request', () => {
  it('parses each distinct query string once and hands every request a copy of its own, arrays included', () => {
    const text = `_id=${randomUUID()}&_id=b&page_size=2`;
    const first = requestWith(text, { _id: ['a', 'b'], page_size: '2' });
    const one = queryOf(first.ctx as never);
    expect(one).to.deep.equal({ _id: ['a', 'b'], page_size: '2' });
    expect(first.parses()).to.equal(1);
    // Coerced in place by the first request's validation.
    (one._id as unknown[])[0] = 42;
    (one as Record<string, unknown>).page_size = 2;
    const second = requestWith(text, {});
    const two = queryOf(second.ctx as never);
    expect(second.parses()).to.equal(0);
    expect(two).to.deep.equal({ _id: ['a', 'b'], page_size: '2' });
    expect(two).to.not.equal(one);
  });

  it('parses another query string for itself', () => {
    const other = requestWith(`page_size=${Math.random()}`, { page_size: 'x' });
    expect(queryOf(other.ctx as never)).to.deep.equal({ page_size: 'x' });
    expect(other.parses()).to.equal(1);
  });
});
