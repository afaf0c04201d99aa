// The Standard Webhooks scheme and secret rotation: deliveries signed by the official
// `standardwebhooks` library (an implementation independent of ours), several secrets, and
// the signed webhook-timestamp's tolerance.
import { expect } from 'chai';
import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import {
  SignatureMismatchError,
  TimestampOutsideToleranceError,
  HeaderMismatchError,
  MalformedSignatureError,
  verifyDelivery,
  verifyDeliveryAsync,
} from '../src/index.js';
import { hmacHex, secret, signedDelivery } from './support/signed-delivery.js';

const oldSecret = secret;
const newSecret = `ofx_whs_${randomBytes(32).toString('base64url')}`;
const whsec = (s: string) => `whsec_${Buffer.from(s).toString('base64')}`;

/** A delivery as ofctx sends it during a rotation's overlap (or outside one, with `previous` unset). */
function ofctxDelivery(options: { current: string; previous?: string; sentAt?: number }) {
  const delivery = signedDelivery({ key: options.previous ?? options.current, sentAt: options.sentAt });
  const at = new Date(options.sentAt ?? Date.now());
  const standard = (key: string) => new Webhook(whsec(key)).sign(delivery.deliveryId, at, delivery.body);
  const signatures = [standard(options.current), ...(options.previous ? [standard(options.previous)] : [])];
  const headers: Record<string, string> = {
      ...delivery.headers,
      'webhook-id': delivery.deliveryId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signatures.join(' '),
  };
  return { ...delivery, headers };
}

describe('Standard Webhooks and several secrets', () => {
  it('verifies a delivery signed by the standardwebhooks library alone (no X-Service-Signature), with either form of the secret', async () => {
    const { body, headers } = ofctxDelivery({ current: newSecret });
    const { 'X-Service-Signature': _dropped, ...standardOnly } = headers;
    for (const key of [newSecret, whsec(newSecret)]) {
      expect(verifyDelivery(body, standardOnly, key).delivery_id).to.equal(headers['webhook-id']);
      expect((await verifyDeliveryAsync(body, standardOnly, key, { crypto: 'web' })).delivery_id).to.equal(headers['webhook-id']);
    }
  });

  it('during a rotation overlap, [new, old], [old] and [new] each verify the same delivery; a stranger does not', async () => {
    const { body, headers } = ofctxDelivery({ current: newSecret, previous: oldSecret });
    expect(headers['X-Service-Signature']).to.equal(hmacHex(body, oldSecret));
    for (const secrets of [[newSecret, oldSecret], [oldSecret], [newSecret], [whsec(newSecret)]]) {
      expect(() => verifyDelivery(body, headers, secrets)).to.not.throw();
      await verifyDeliveryAsync(body, headers, secrets, { crypto: 'web' });
    }
    const stranger = `ofx_whs_${randomBytes(32).toString('base64url')}`;
    expect(() => verifyDelivery(body, headers, stranger)).to.throw(SignatureMismatchError, /rotation pass \[newSecret, oldSecret\]/);
    let asyncError: unknown;
    await verifyDeliveryAsync(body, headers, stranger, { crypto: 'web' }).catch((error: unknown) => (asyncError = error));
    expect(asyncError).to.be.instanceOf(SignatureMismatchError);
  });

  it('a tampered body fails both schemes', () => {
    const { body, headers } = ofctxDelivery({ current: newSecret, previous: oldSecret });
    expect(() => verifyDelivery(body.replace('resident.admitted', 'resident.discharged'), headers, [newSecret, oldSecret])).to.throw(SignatureMismatchError);
  });

  it('enforces the signed webhook-timestamp: 300 s by default, toleranceSeconds when given', () => {
    const stale = ofctxDelivery({ current: newSecret, sentAt: Date.now() - 10 * 60_000 });
    expect(() => verifyDelivery(stale.body, stale.headers, newSecret)).to.throw(TimestampOutsideToleranceError, /webhook-timestamp/);
    expect(() => verifyDelivery(stale.body, stale.headers, newSecret, { toleranceSeconds: 3600 })).to.not.throw();
    const fresh = ofctxDelivery({ current: newSecret });
    expect(() => verifyDelivery(fresh.body, fresh.headers, newSecret)).to.not.throw();
    // A fresh timestamp pasted onto a stale delivery breaks the Standard Webhooks signature.
    const { 'X-Service-Signature': _x, ...standardOnly } = stale.headers;
    const replayed = { ...standardOnly, 'webhook-timestamp': fresh.headers['webhook-timestamp'] };
    expect(() => verifyDelivery(stale.body, replayed, newSecret)).to.throw(SignatureMismatchError);
  });

  it('checks webhook-id against the signed body, and refuses webhook-signature without its id and timestamp', () => {
    const { body, headers } = ofctxDelivery({ current: newSecret });
    const other = signedDelivery().deliveryId;
    const mac = createHmac('sha256', newSecret).update(`${other}.${headers['webhook-timestamp']}.${body}`).digest('base64');
    expect(() => verifyDelivery(body, { ...headers, 'webhook-id': other, 'webhook-signature': `v1,${mac}` }, newSecret)).to.throw(HeaderMismatchError, /webhook-id/);
    const { 'webhook-id': _id, ...noId } = headers;
    expect(() => verifyDelivery(body, noId, newSecret)).to.throw(MalformedSignatureError, /webhook-id is missing/);
    expect(() => verifyDelivery(body, { ...headers, 'webhook-signature': 'v2,abc' }, newSecret)).to.throw(MalformedSignatureError, /no v1 signature/);
  });

  it('refuses a whsec_ secret that is not an ofctx key, saying what to pass', () => {
    const { body, headers } = ofctxDelivery({ current: newSecret });
    expect(() => verifyDelivery(body, headers, `whsec_${randomBytes(24).toString('base64')}`)).to.throw(TypeError, /standard_webhooks_secret/);
  });
});

describe('the CLI with a saved test answer', () => {
  it('verifies an answer carrying Standard Webhooks headers, however old', async () => {
    const { spawnSync } = await import('node:child_process');
    const { body, headers } = ofctxDelivery({ current: newSecret, previous: oldSecret, sentAt: Date.now() - 3 * 3600_000 });
    const answer = JSON.stringify({ data: { body, signature: headers['X-Service-Signature'], signature_header: 'X-Service-Signature', headers } });
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--conditions=ofctx-source', 'verifier/src/cli.ts', '--secret', oldSecret], { input: answer, encoding: 'utf8' });
    expect(run.status, run.stderr).to.equal(0);
  });
});
