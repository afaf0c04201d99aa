import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { createDeliveryDeduplicator, type DeduplicationStore } from '../src/index.js';

describe('createDeliveryDeduplicator', () => {
  it('answers true the first time an id is seen and false for repeats', async () => {
    const deduplicator = createDeliveryDeduplicator();
    const id = randomUUID();
    expect(await deduplicator.markIfNew(id)).to.equal(true);
    expect(await deduplicator.markIfNew(id)).to.equal(false);
    expect(await deduplicator.markIfNew(id.toUpperCase())).to.equal(false);
    expect(await deduplicator.markIfNew(randomUUID())).to.equal(true);
  });

  it('answers true exactly once for concurrent arrivals of the same id', async () => {
    const deduplicator = createDeliveryDeduplicator();
    const id = randomUUID();
    const answers = await Promise.all(Array.from({ length: 10 }, () => deduplicator.markIfNew(id)));
    expect(answers.filter(Boolean)).to.have.length(1);
  });

  it('forgets an id on request, so that a retry is processed again', async () => {
    const deduplicator = createDeliveryDeduplicator();
    const id = randomUUID();
    await deduplicator.markIfNew(id);
    await deduplicator.forget(id);
    expect(await deduplicator.markIfNew(id)).to.equal(true);
  });

  it('remembers an id for ttlMs, then treats it as new', async () => {
    let now = 0;
    const deduplicator = createDeliveryDeduplicator({ ttlMs: 1000, now: () => now });
    const id = randomUUID();
    await deduplicator.markIfNew(id);
    now = 999;
    expect(await deduplicator.markIfNew(id)).to.equal(false);
    now = 1000;
    expect(await deduplicator.markIfNew(id)).to.equal(true);
  });

  it('keeps at most maxEntries ids in memory, dropping the oldest', async () => {
    const deduplicator = createDeliveryDeduplicator({ maxEntries: 2 });
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of [a, b, c]) await deduplicator.markIfNew(id!);
    expect(await deduplicator.markIfNew(c!)).to.equal(false);
    expect(await deduplicator.markIfNew(a!)).to.equal(true);
  });

  it('delegates to a pluggable (async) store, with prefixed keys and the ttl', async () => {
    const calls: string[] = [];
    const keys = new Set<string>();
    const store: DeduplicationStore = {
      async addIfAbsent(key, ttlMs) {
        calls.push(`add ${key} ${ttlMs}`);
        if (keys.has(key)) return false;
        keys.add(key);
        return true;
      },
      async delete(key) {
        calls.push(`delete ${key}`);
        keys.delete(key);
      },
    };
    const deduplicator = createDeliveryDeduplicator({ store, ttlMs: 5000, keyPrefix: 'hooks:' });
    expect(await deduplicator.markIfNew('ID-1')).to.equal(true);
    expect(await deduplicator.markIfNew('id-1')).to.equal(false);
    await deduplicator.forget('id-1');
    expect(calls).to.deep.equal(['add hooks:id-1 5000', 'add hooks:id-1 5000', 'delete hooks:id-1']);
  });

  it('throws a TypeError for an empty id or a bad ttl', async () => {
    const deduplicator = createDeliveryDeduplicator();
    let thrown: unknown;
    try {
      await deduplicator.markIfNew('');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).to.be.instanceOf(TypeError);
    expect(() => createDeliveryDeduplicator({ ttlMs: 0 })).to.throw(TypeError, /ttlMs/);
  });
});
