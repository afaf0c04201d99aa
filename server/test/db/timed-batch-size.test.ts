// A background batch's size follows how long the last full batch held the database: toward
// the target, by at most double or half a step, within a floor and a ceiling; a batch cut
// short by an empty backlog teaches nothing.
import { expect } from 'chai';
import { TimedBatchSize } from '../../src/db/timed-batch-size.js';

describe('a batch size steered by time', () => {
  const sized = (initial = 128) => new TimedBatchSize({ targetMs: 5, min: 16, max: 2048, initial });

  it('starts at its initial size, kept within the floor and the ceiling', () => {
    expect(sized().current).to.equal(128);
    expect(sized(4).current).to.equal(16);
    expect(sized(10_000).current).to.equal(2048);
  });

  it('grows toward the target after a full batch that held the database for less, at most doubling', () => {
    const size = sized();
    size.observe(128, 128, 4);
    expect(size.current).to.equal(160);
    size.observe(160, 160, 0.5);
    expect(size.current).to.equal(320);
  });

  it('shrinks after a full batch that held it for longer, at most halving', () => {
    const size = sized();
    size.observe(128, 128, 8);
    expect(size.current).to.equal(80);
    size.observe(80, 80, 400);
    expect(size.current).to.equal(40);
  });

  it('stops at the floor and the ceiling', () => {
    const size = sized();
    for (let i = 0; i < 20; i++) size.observe(size.current, size.current, 0);
    expect(size.current).to.equal(2048);
    for (let i = 0; i < 20; i++) size.observe(size.current, size.current, 1_000);
    expect(size.current).to.equal(16);
  });

  it('learns nothing from a batch the backlog cut short', () => {
    const size = sized();
    size.observe(10, 128, 0.1);
    size.observe(0, 128, 0);
    expect(size.current).to.equal(128);
  });
});
