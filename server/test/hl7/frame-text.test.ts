// A frame's text read by the listener is the text @medplum/core's Hl7Message would give back
// after parsing the frame: the message store keeps the same text, the applier parses it once.
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hl7Message } from '@medplum/core';
import { frameText } from '../../src/hl7/frame-text.js';

const SAMPLES = fileURLToPath(new URL('../../../../shared/samples/hl7v2/', import.meta.url));
const framed = (text: string | Buffer) => Buffer.concat([Buffer.from([0x0b]), Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'), Buffer.from([0x1c, 0x0d])]);
const parsedAndWritten = (text: string) => Hl7Message.parse(text).toString();

describe('frameText', () => {
  const edgeCases: Array<[string, string]> = [
    ['CR LF between segments and blank lines at the end', 'MSH|^~\\&|LAB|FAC|OFCTX|FAC|20260101||ORU^R01|1|P|2.5.1\r\nPID|||1^^^H^MR||Doe^Jane\r\n\r\n'],
    ['LF alone', 'MSH|^~\\&|LAB|FAC|OFCTX|FAC|20260101||ADT^A01|2|P|2.5\nPID|||1||X^Y\n'],
    ['empty trailing fields', 'MSH|^~\\&|A|B|C|D|20260101||ADT^A01|3|P|2.5||||||||\rPID|||1||X^Y|||\r'],
    ['escapes, repetitions and subcomponents', 'MSH|^~\\&|A|B|C|D|20260101||ORU^R01|4|P|2.5\rOBX|1|TX|||a\\F\\b~c^d&e\\X0D\\f\r'],
    ['a truncation character (HL7 2.7)', 'MSH|^~\\&#|A|B|C|D|20260101||ADT^A01|5|P|2.7\rPID|||1||X^Y\r'],
    ['non-ASCII text', 'MSH|^~\\&|A|B|C|D|20260101||ADT^A01|6|P|2.5|||||||UNICODE UTF-8\rPID|||1||Müller^Zoë\r'],
  ];
  for (const [name, text] of edgeCases) {
    it(`gives what parsing and writing the message gives: ${name}`, () => {
      expect(frameText(framed(text))).to.equal(parsedAndWritten(text));
    });
  }

  it('keeps a frame that is not a message as it was sent', () => {
    expect(frameText(framed('not hl7\r\nat all'))).to.equal('not hl7\r\nat all');
  });

  it('replaces bytes that are not UTF-8 as decoding does, not dropping the message', () => {
    const bytes = Buffer.concat([Buffer.from('MSH|^~\\&|A|B|C|D|20260101||ADT^A01|7|P|2.5\rPID|||1||M'), Buffer.from([0xfc]), Buffer.from('ller^Z\r')]);
    expect(frameText(framed(bytes))).to.equal(parsedAndWritten(bytes.toString('utf8')));
    expect(frameText(framed(bytes))).to.contain('M\uFFFDller');
  });

  const files = existsSync(SAMPLES) ? (readdirSync(SAMPLES, { recursive: true }) as string[]).filter((f) => statSync(join(SAMPLES, f)).isFile()) : [];
  if (files.length === 0) it.skip(`the real samples: needs ../shared/samples/hl7v2/ (absent in this clone: ${SAMPLES})`);
  else
    it(`gives what parsing and writing gives for each of the ${files.length} real samples`, () => {
      let messages = 0;
      for (const file of files) {
        const text = readFileSync(join(SAMPLES, file), 'utf8').replace(/^\uFEFF/, '');
        if (!text.startsWith('MSH')) continue;
        messages++;
        expect(frameText(framed(text)), file).to.equal(parsedAndWritten(text));
      }
      expect(messages).to.be.greaterThan(10);
    });
});
