// What a store quotes from a sender is written with U+FFFD in place of NUL, which PostgreSQL's
// text and jsonb refuse; everything else is left as it is.
import { expect } from 'chai';
import { storableJson, storableText } from '../../src/db/storable-text.js';

describe('storable text', () => {
  it('puts U+FFFD in place of each NUL and leaves other text, and null, as they are', () => {
    expect(storableText('MEDICARE\u0000PAYER\u0000')).to.equal('MEDICARE\uFFFDPAYER\uFFFD');
    expect(storableText('no NUL, \\u0000 written out')).to.equal('no NUL, \\u0000 written out');
    expect(storableText(null)).to.equal(null);
  });

  it('writes JSON whose strings and keys hold no NUL, with an escaped backslash left alone', () => {
    const text = storableJson({ errors: [{ text: 'NM103 "\u0000"', where: 'a\\u0000b' }], ['k\u0000']: 1 });
    expect(text).to.not.include('\\u0000"');
    expect(JSON.parse(text)).to.deep.equal({ errors: [{ text: 'NM103 "\uFFFD"', where: 'a\\u0000b' }], ['k\uFFFD']: 1 });
    expect(storableJson({ a: [1, 'x'] })).to.equal('{"a":[1,"x"]}');
  });
});
