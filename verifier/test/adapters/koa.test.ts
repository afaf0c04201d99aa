import { expect } from 'chai';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import { KOA_DELIVERY_STATE, koaWebhookMiddleware, verifyKoaRequest, WebhookVerificationError, type EventDelivery } from '../../src/index.js';
import { listen, post, type LoopbackServer } from '../support/loopback-server.js';
import { secret, signedDelivery } from '../support/signed-delivery.js';

function koaApp(): Koa {
  const app = new Koa();
  app.silent = true; // expected 4xx errors would otherwise be logged
  return app;
}

/** Answers the verification error's code with its status. */
const reportCode: Koa.Middleware = async (ctx, next) => {
  try {
    await next();
  } catch (error) {
    const failure = error as WebhookVerificationError;
    ctx.status = failure.status ?? 500;
    ctx.body = { code: failure.code };
  }
};

describe('Koa 3 adapter (real app on loopback)', () => {
  let server: LoopbackServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('accepts a signed delivery read from ctx.req by the middleware', async () => {
    const app = koaApp();
    app.use(koaWebhookMiddleware(secret));
    app.use((ctx) => {
      ctx.body = { received: (ctx.state[KOA_DELIVERY_STATE] as EventDelivery).delivery_id };
    });
    server = await listen(app.callback());
    const { body, headers, deliveryId } = signedDelivery();
    const answer = await post(server.url, body, headers);
    expect(answer.status).to.equal(200);
    expect(JSON.parse(answer.text)).to.deep.equal({ received: deliveryId });
  });

  it("rejects a tampered body with Koa's default error handling answering 401", async () => {
    const app = koaApp();
    app.use(koaWebhookMiddleware(secret));
    app.use((ctx) => {
      ctx.body = 'processed';
    });
    server = await listen(app.callback());
    const { body, headers } = signedDelivery();
    expect((await post(server.url, `${body} `, headers)).status).to.equal(401);
  });

  it('uses the raw text koa-body keeps with includeUnparsed: true', async () => {
    const app = koaApp();
    app.use(reportCode);
    app.use(koaBody({ includeUnparsed: true }));
    app.use(async (ctx) => {
      ctx.body = { received: (await verifyKoaRequest(ctx, secret, { crypto: 'web' })).delivery_id };
    });
    server = await listen(app.callback());
    const { body, headers, deliveryId } = signedDelivery();
    expect(JSON.parse((await post(server.url, body, headers)).text)).to.deep.equal({ received: deliveryId });
    const tampered = await post(server.url, body.replace('"v1"', '"v1" '), headers);
    expect(tampered).to.deep.equal({ status: 401, text: JSON.stringify({ code: 'signature_mismatch' }) });
  });

  it('answers 500 body_not_raw when koa-body parsed the body without keeping it', async () => {
    const app = koaApp();
    app.use(reportCode);
    app.use(koaBody());
    app.use(koaWebhookMiddleware(secret));
    server = await listen(app.callback());
    const { body, headers } = signedDelivery();
    expect(await post(server.url, body, headers)).to.deep.equal({ status: 500, text: JSON.stringify({ code: 'body_not_raw' }) });
  });

  it('answers 413 past limitBytes', async () => {
    const app = koaApp();
    app.use(reportCode);
    app.use(koaWebhookMiddleware(secret, { limitBytes: 64 }));
    server = await listen(app.callback());
    const { body, headers } = signedDelivery();
    expect(await post(server.url, body, headers)).to.deep.equal({ status: 413, text: JSON.stringify({ code: 'payload_too_large' }) });
  });
});
