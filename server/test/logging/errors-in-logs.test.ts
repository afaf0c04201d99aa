// No patient data in logs: a failed statement's error names its SQL with placeholders, not the
// values bound to it, and an error logged as `err` is logged as its class, code and stack
// frames, never its message (drivers quote the values they were given in their messages).
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/logging/logger.js';
import { freshKnexForSuite } from '../../../test/support/database.js';

const VALUE = 'MRN-4815162342';

function capturedLogger() {
  let text = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { logger: createLogger('info', sink), text: () => text };
}

describe('errors in logs', () => {
  const db = freshKnexForSuite();

  it('names a failed statement by its SQL with placeholders, without the values bound to it', async () => {
    const error = await db()
      .raw('select ? as mrn from no_such_table', [VALUE])
      .then(() => undefined, (e: Error) => e);
    expect(error, 'the statement fails').to.be.instanceOf(Error);
    expect(error!.message).to.match(/no_such_table/);
    expect(error!.message).to.not.include(VALUE);
  });

  it('logs an error given as err by its class, code and frames, never its message', async () => {
    const { logger, text } = capturedLogger();
    const failure = Object.assign(new Error(`duplicate key value (value)=(${VALUE})`), { code: '23505' });
    logger.error({ err: failure, delivery_id: 'd-1' }, 'could not be recorded');
    logger.flush();
    const line = JSON.parse(text().trim()) as { err: { type: string; code: string; frames: string[] }; delivery_id: string };
    expect(text()).to.not.include(VALUE);
    expect(line.err.type).to.equal('Error');
    expect(line.err.code).to.equal('23505');
    expect(line.err.frames[0]).to.match(/^at /);
    expect(line.delivery_id).to.equal('d-1');
  });

  it('has no log call in the service that hands an error message as err', () => {
    // Node's own socket errors at the MLLP listener and the start-up failure main.ts reports
    // (configuration, a database it cannot reach) are messages an operator needs, and hold no record.
    const allowed = new Set(['hl7/mllp-listener.ts:MLLP TLS handshake failed', 'hl7/mllp-listener.ts:MLLP listener error', 'main.ts:shutdown failed', 'main.ts:could not start']);
    const root = join(import.meta.dirname, '../../src');
    const offending: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts')) {
          for (const match of readFileSync(path, 'utf8').matchAll(/\berr: [^,}]*\.message\b[^']*'([^']*)'/g)) {
            const where = `${path.slice(root.length + 1)}:${match[1]}`;
            if (!allowed.has(where)) offending.push(where);
          }
        }
      }
    };
    walk(root);
    expect(offending).to.deep.equal([]);
  });
});
