// The stop signal every attempt in flight listens on: as many listeners as its worker's
// concurrency without Node's "possible memory leak" warning, and the warning still given past them.
import { expect } from 'chai';
import { stopSignal } from '../../src/webhooks/stop-signal.js';

describe('the workers\' stop signal', () => {
  async function warningsWhile(add: (signal: AbortSignal) => void): Promise<string[]> {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      add(stopSignal(32).signal);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    return warnings;
  }

  it('takes one listener per attempt up to its concurrency without a leak warning, and aborts them all', async () => {
    const controller = stopSignal(32);
    let aborted = 0;
    for (let i = 0; i < 32; i++) controller.signal.addEventListener('abort', () => aborted++, { once: true });
    controller.abort();
    expect(aborted).to.equal(32);
    expect(await warningsWhile((signal) => { for (let i = 0; i < 32; i++) signal.addEventListener('abort', () => {}); })).to.deep.equal([]);
  });

  it('still warns when listeners outnumber the attempts a worker can hold (a leak)', async () => {
    expect(await warningsWhile((signal) => { for (let i = 0; i < 33; i++) signal.addEventListener('abort', () => {}); })).to.deep.equal(['MaxListenersExceededWarning']);
  });
});
