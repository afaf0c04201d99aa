import { expect } from 'chai';
import express, { type ErrorRequestHandler } from 'express';
import {
  EXPRESS_DELIVERY_LOCAL,
  expressWebhookMiddleware,
  verifyExpressRequest,
  WebhookVerificationError,
  type EventDelivery,
} from '../../src/index.js';
import { listen, post, type LoopbackServer } from '../support/loopback-server.js';
import { secret, signedDelivery } from '../support/signed-delivery.js';

// Answers the verification error's code, with its status, so tests can tell failures apart.
const reportCode: ErrorRequestHandler = (error, _req, res, _next) => {
  const failure = error as WebhookVerificationError;
  res.status(failure.status ?? 500).json({ code: failure.code, message: failure.message });
};

describe('Express 5 adapter (real app on loopback)', () => {
  let server: LoopbackServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  function recipeApp(): express.Express {
    const app = express();
    app.set('env', 'test'); // keeps the default error handler from logging expected failures
    // The recipe: raw body on the webhook route, registered before any app-wide JSON parser.
    app.post('/hooks', express.raw({ type: 'application/json' }), expressWebhookMiddleware(secret), (_req, res) => {
      const delivery = res.locals[EXPRESS_DELIVERY_LOCAL] as EventDelivery;
      res.json({ received: delivery.delivery_id });
    });
    app.use(express.json());
    app.post('/other', (req, res) => res.json(req.body));
    return app;
  }

  it('accepts a signed delivery through express.raw and the middleware', async () => {
    server = await listen(recipeApp());
    const { body, headers, deliveryId } = signedDelivery();
    const answer = await post(`${server.url}/hooks`, body, headers);
    expect(answer.status).to.equal(200);
    expect(JSON.parse(answer.text)).to.deep.equal({ received: deliveryId });
  });

  it("rejects a tampered body with Express's default error handler answering 401", async () => {
    server = await listen(recipeApp());
    const { body, headers } = signedDelivery();
    const answer = await post(`${server.url}/hooks`, body.replace('admitted', 'discharged'), headers);
    expect(answer.status).to.equal(401);
  });

  it('answers 500 body_not_raw, naming express.raw, when express.json() parsed the body first', async () => {
    const app = express();
    app.use(express.json());
    app.post('/hooks', express.raw({ type: 'application/json' }), expressWebhookMiddleware(secret), (_req, res) => res.end());
    app.use(reportCode);
    server = await listen(app);
    const { body, headers } = signedDelivery();
    const answer = await post(`${server.url}/hooks`, body, headers);
    expect(answer.status).to.equal(500);
    const { code, message } = JSON.parse(answer.text) as { code: string; message: string };
    expect(code).to.equal('body_not_raw');
    expect(message).to.match(/already parsed JSON.*express\.raw\(\{ type: 'application\/json' \}\)/);
  });

  it('answers body_not_raw, naming the Content-Type, when express.raw did not run', async () => {
    const app = express();
    app.post('/hooks', express.raw({ type: 'application/json' }), expressWebhookMiddleware(secret), (_req, res) => res.end());
    app.use(reportCode);
    server = await listen(app);
    const { body, headers } = signedDelivery();
    const answer = await post(`${server.url}/hooks`, body, { ...headers, 'Content-Type': 'text/plain' });
    expect(JSON.parse(answer.text)).to.include({ code: 'body_not_raw' });
    expect(JSON.parse(answer.text).message).to.match(/req\.body is undefined.*"text\/plain"/);
  });

  it('verifies inside a handler with verifyExpressRequest, including the tolerance option', async () => {
    const app = express();
    app.post('/hooks', express.raw({ type: 'application/json' }), (req, res) => {
      try {
        res.json(verifyExpressRequest(req, secret, { toleranceSeconds: 300 }));
      } catch (error) {
        const failure = error as WebhookVerificationError;
        res.status(failure.status).json({ code: failure.code });
      }
    });
    server = await listen(app);
    const fresh = signedDelivery();
    expect((await post(`${server.url}/hooks`, fresh.body, fresh.headers)).status).to.equal(200);
    const stale = signedDelivery({ sentAt: Date.now() - 3_600_000 });
    expect(await post(`${server.url}/hooks`, stale.body, stale.headers)).to.deep.equal({
      status: 400,
      text: JSON.stringify({ code: 'timestamp_outside_tolerance' }),
    });
  });
});
