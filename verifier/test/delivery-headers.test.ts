import { expect } from 'chai';
import { headerValue } from '../src/delivery-headers.js';

describe('headerValue', () => {
  it('finds a header under a key of any case', () => {
    for (const key of ['x-service-attempt', 'X-Service-Attempt', 'X-SERVICE-ATTEMPT']) {
      expect(headerValue({ [key]: '2' }, 'X-Service-Attempt'), key).to.equal('2');
    }
  });

  it('reads a Fetch Headers through get', () => {
    expect(headerValue(new Headers({ 'X-Service-Attempt': '3' }), 'x-service-attempt')).to.equal('3');
    expect(headerValue(new Headers(), 'x-service-attempt')).to.equal(undefined);
  });

  it('unwraps a one-element array, and keeps every value of a repeated header', () => {
    expect(headerValue({ 'x-a': ['1'] }, 'X-A')).to.equal('1');
    expect(headerValue({ 'x-a': ['1', '2'] }, 'X-A')).to.deep.equal(['1', '2']);
    expect(headerValue({ 'X-A': '1', 'x-a': '2' }, 'x-a')).to.deep.equal(['1', '2']);
  });

  it('treats undefined, null and empty arrays as absent, and numbers as text', () => {
    expect(headerValue({ 'x-a': undefined, 'x-b': null, 'x-c': [] }, 'x-a')).to.equal(undefined);
    expect(headerValue({ 'x-b': null }, 'x-b')).to.equal(undefined);
    expect(headerValue({ 'x-c': [] }, 'x-c')).to.equal(undefined);
    expect(headerValue({ 'x-d': 7 }, 'x-d')).to.equal('7');
  });

  it('throws a TypeError when given no headers at all', () => {
    expect(() => headerValue(undefined as never, 'x-a')).to.throw(TypeError, /headers must be/);
  });
});
