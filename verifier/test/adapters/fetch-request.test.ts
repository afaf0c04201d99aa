import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { BodyNotRawError, PayloadTooLargeError, verifyFetchRequest, WebhookVerificationError, type VerifyRequestOptions } from '../../src/index.js';
import { chunked, listen, post, type LoopbackServer } from '../support/loopback-server.js';
import { secret, signedDelivery } from '../support/signed-delivery.js';

/** The Fetch Request a Fetch-based framework would build from this Node request. */
function toFetchRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of [value].flat()) if (one !== undefined) headers.append(name, one);
  }
  return new Request(`http://${req.headers.host}${req.url}`, {
    method: req.method,
    headers,
    body: Readable.toWeb(req) as ReadableStream<Uint8Array>,
    duplex: 'half',
  } as RequestInit);
}

function fetchReceiver(options: VerifyRequestOptions) {
  return async (req: IncomingMessage, res: import('node:http').ServerResponse) => {
    try {
      const delivery = await verifyFetchRequest(toFetchRequest(req), secret, options);
      res.writeHead(200).end(delivery.delivery_id);
    } catch (error) {
      const failure = error as WebhookVerificationError;
      res.writeHead(failure.status ?? 500).end(failure.code ?? String(error));
    }
  };
}

for (const crypto of ['web', 'node'] as const) {
  describe(`verifyFetchRequest (crypto: '${crypto}', Requests built from a real loopback server)`, () => {
    let server: LoopbackServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    it('accepts a signed delivery, sent whole or chunked', async () => {
      server = await listen(fetchReceiver({ crypto }));
      const { body, headers, deliveryId } = signedDelivery();
      expect(await post(server.url, body, headers)).to.deep.equal({ status: 200, text: deliveryId });
      expect(await post(server.url, chunked(new TextEncoder().encode(body), 5), headers)).to.deep.equal({ status: 200, text: deliveryId });
    });

    it('rejects a tampered body and a re-sent body with the headers of another delivery', async () => {
      server = await listen(fetchReceiver({ crypto }));
      const first = signedDelivery();
      const second = signedDelivery();
      expect(await post(server.url, first.body.replace('"v1"', '"V1"'), first.headers)).to.deep.equal({ status: 401, text: 'signature_mismatch' });
      const mixed = { ...first.headers, 'X-Service-Delivery-Id': second.deliveryId };
      expect(await post(server.url, first.body, mixed)).to.deep.equal({ status: 400, text: 'header_mismatch' });
    });

    it('answers 413 for a streamed body past limitBytes', async () => {
      server = await listen(fetchReceiver({ crypto, limitBytes: 128 }));
      const { body, headers } = signedDelivery();
      expect(await post(server.url, chunked(new TextEncoder().encode(body), 50), headers)).to.deep.equal({
        status: 413,
        text: 'payload_too_large',
      });
    });
  });
}

describe('verifyFetchRequest (Request objects)', () => {
  it('accepts a Request as a route handler receives it', async () => {
    const { body, headers, deliveryId } = signedDelivery();
    const delivery = await verifyFetchRequest(new Request('https://receiver.example/hooks', { method: 'POST', headers, body }), secret);
    expect(delivery.delivery_id).to.equal(deliveryId);
  });

  it('rejects a Content-Length past the limit before reading', async () => {
    const { body, headers } = signedDelivery();
    const request = new Request('https://receiver.example/hooks', { method: 'POST', headers: { ...headers, 'Content-Length': '999999' }, body });
    let thrown: unknown;
    try {
      await verifyFetchRequest(request, secret, { limitBytes: 1000 });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).to.be.instanceOf(PayloadTooLargeError);
    expect(request.bodyUsed).to.equal(false);
  });

  it('reports a body that was already read, saying to verify first', async () => {
    const { body, headers } = signedDelivery();
    const request = new Request('https://receiver.example/hooks', { method: 'POST', headers, body });
    await request.json();
    let thrown: unknown;
    try {
      await verifyFetchRequest(request, secret);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).to.be.instanceOf(BodyNotRawError).with.property('message').that.matches(/verify first/);
  });

  it('treats a Request without a body as an empty body', async () => {
    const { headers } = signedDelivery();
    let thrown: unknown;
    try {
      await verifyFetchRequest(new Request('https://receiver.example/hooks', { method: 'POST', headers }), secret);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).to.have.property('code', 'signature_mismatch');
  });
});
