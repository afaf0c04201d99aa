import { expect } from 'chai';
import { createMemoryDeduplicationStore } from '../src/index.js';

describe('createMemoryDeduplicationStore', () => {
  it('adds a key once until it expires', () => {
    let now = 0;
    const store = createMemoryDeduplicationStore({ now: () => now });
    expect(store.addIfAbsent('a', 10)).to.equal(true);
    expect(store.addIfAbsent('a', 10)).to.equal(false);
    now = 10;
    expect(store.addIfAbsent('a', 10)).to.equal(true);
  });

  it('evicts the oldest live key when full', () => {
    const store = createMemoryDeduplicationStore({ maxEntries: 3 });
    for (const key of ['a', 'b', 'c', 'd']) store.addIfAbsent(key, 60_000);
    expect(store.addIfAbsent('b', 60_000)).to.equal(false);
    expect(store.addIfAbsent('a', 60_000)).to.equal(true);
  });

  it('deletes a key', () => {
    const store = createMemoryDeduplicationStore();
    store.addIfAbsent('a', 60_000);
    store.delete('a');
    expect(store.addIfAbsent('a', 60_000)).to.equal(true);
  });

  it('throws a TypeError for a maxEntries below 1', () => {
    expect(() => createMemoryDeduplicationStore({ maxEntries: 0 })).to.throw(TypeError, /maxEntries/);
  });
});
