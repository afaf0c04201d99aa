import { expect } from 'chai';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readRawBody, verifyNodeRequest, WebhookVerificationError, type VerifyRequestOptions } from '../../src/index.js';
import { chunked, listen, post, type LoopbackServer } from '../support/loopback-server.js';
import { vectors } from '../support/signature-vectors.js';
import { hmacHex, secret, signedDelivery } from '../support/signed-delivery.js';

/** Answers 200 with the delivery id, or the error's status and code. */
function receiver(options: VerifyRequestOptions = {}, before?: (req: IncomingMessage) => Promise<void>) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    try {
      await before?.(req);
      const delivery = await verifyNodeRequest(req, secret, options);
      res.writeHead(200).end(delivery.delivery_id);
    } catch (error) {
      const status = error instanceof WebhookVerificationError ? error.status : 500;
      res.writeHead(status).end(error instanceof WebhookVerificationError ? error.code : String(error));
    }
  };
}

describe('verifyNodeRequest (node:http server on loopback)', () => {
  let server: LoopbackServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('accepts a signed delivery', async () => {
    server = await listen(receiver());
    const { body, headers, deliveryId } = signedDelivery();
    expect(await post(server.url, body, headers)).to.deep.equal({ status: 200, text: deliveryId });
  });

  it('accepts a delivery that arrives in many small chunks, without Content-Length', async () => {
    server = await listen(receiver({ crypto: 'web' }));
    const { body, headers, deliveryId } = signedDelivery();
    expect(await post(server.url, chunked(new TextEncoder().encode(body), 7), headers)).to.deep.equal({ status: 200, text: deliveryId });
  });

  it('rejects a body with one byte changed, and a forged signature', async () => {
    server = await listen(receiver());
    const { body, headers } = signedDelivery();
    expect(await post(server.url, body.replace('"v1"', '"v2"'), headers)).to.deep.equal({ status: 401, text: 'signature_mismatch' });
    const forged = { ...headers, 'X-Service-Signature': hmacHex(body, 'ofx_whs_guess') };
    expect(await post(server.url, body, forged)).to.deep.equal({ status: 401, text: 'signature_mismatch' });
    const { 'X-Service-Signature': _, ...unsigned } = headers;
    expect(await post(server.url, body, unsigned)).to.deep.equal({ status: 401, text: 'missing_signature' });
  });

  it('answers 413 for a body over limitBytes, declared or streamed', async () => {
    server = await listen(receiver({ limitBytes: 100 }));
    const { body, headers } = signedDelivery();
    expect(await post(server.url, body, headers)).to.deep.equal({ status: 413, text: 'payload_too_large' });
    expect(await post(server.url, chunked(new TextEncoder().encode(body), 64), headers)).to.deep.equal({ status: 413, text: 'payload_too_large' });
  });

  it('reports a stream that something else already read', async () => {
    server = await listen(
      receiver({}, async (req) => {
        for await (const _ of req) void _;
      }),
    );
    const { body, headers } = signedDelivery();
    expect(await post(server.url, body, headers)).to.deep.equal({ status: 500, text: 'body_not_raw' });
  });
});

describe('readRawBody', () => {
  let server: LoopbackServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('returns the exact bytes sent, for every shared vector, chunked mid-character', async () => {
    server = await listen(async (req, res) => {
      const bytes = await readRawBody(req);
      res.end(Buffer.from(bytes).toString('base64'));
    });
    for (const vector of vectors) {
      const { text } = await post(server.url, chunked(vector.body, 3), { 'Content-Type': 'application/json' });
      expect(text, vector.name).to.equal(vector.body_base64);
    }
  });

  it('throws a TypeError for a limit that is not a positive integer', async () => {
    let thrown: unknown;
    try {
      await readRawBody({ headers: {}, on: () => undefined, removeListener: () => undefined }, { limitBytes: 0 });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).to.be.instanceOf(TypeError);
  });
});
