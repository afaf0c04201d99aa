// /metrics as an operator scrapes it: off unless configured, behind the operator's token on
// the API port or on a port of its own, in valid Prometheus text, counting requests, tokens,
// refusals and deliveries, and never carrying an id, a URL or anything about a resident.
import { expect } from 'chai';
import { loadConfig } from '../../src/config/config.js';
import { call, tokenFor } from '../../../test/support/http.js';
import { parsePrometheusText, type Exposition } from '../../../test/support/prometheus-text.js';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { startReceiver, waitFor, type Receiver } from '../webhooks/support/receiver.js';
import { startWebhookService, type WebhookTestService } from '../webhooks/support/webhook-service.js';

const METRICS_TOKEN = 'mt_' + 'a1b2c3d4'.repeat(5);

async function scrape(baseUrl: string, token = METRICS_TOKEN): Promise<Exposition> {
  const answer = await call(baseUrl, 'GET', '/metrics', { token });
  expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
  expect(answer.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(answer.body as string);
}

describe('metrics', function () {
  this.timeout(60_000);

  describe('when not configured', () => {
    let service: TestService;
    before(async () => (service = await startTestService()));
    after(async () => service?.close());

    it('are off: /metrics answers 404 in the envelope, with or without a token', async () => {
      for (const token of [undefined, METRICS_TOKEN]) {
        const answer = await call(service.baseUrl, 'GET', '/metrics', { token });
        expect(answer.status).to.equal(404);
        expect(answer.body.error.message).to.match(/METRICS_TOKEN or METRICS_PORT/);
      }
    });
  });

  describe('behind METRICS_TOKEN on the API port', () => {
    let service: WebhookTestService;
    let receiver: Receiver;
    before(async () => {
      service = await startWebhookService({ env: { METRICS_TOKEN, TOKEN_RATE_LIMIT: '6' } });
      receiver = await startReceiver();
    });
    after(async () => {
      await service?.close();
      await receiver?.close();
    });

    it('refuse a missing or wrong token with 401, and a partner access token too', async () => {
      const tenant = await service.tenant();
      for (const token of [undefined, 'mt_wrong', METRICS_TOKEN + 'x', tenant.token]) {
        const answer = await call(service.baseUrl, 'GET', '/metrics', { token });
        expect(answer.status).to.equal(401);
        expect(answer.body.error.code).to.equal(token ? 'invalid_token' : 'missing_token');
        expect(answer.body.error.message).to.match(/METRICS_TOKEN/);
        expect(answer.headers.get('www-authenticate')).to.equal(token ? 'Bearer realm="ofctx", error="invalid_token", error_description="The metrics token is wrong"' : 'Bearer realm="ofctx"');
      }
    });

    it('parse as Prometheus text and carry the process metrics', async () => {
      const metrics = await scrape(service.baseUrl);
      expect(metrics.types.get('ofctx_process_cpu_user_seconds_total')).to.equal('counter');
      expect(metrics.types.get('ofctx_nodejs_eventloop_lag_seconds')).to.equal('gauge');
      expect(metrics.value('ofctx_process_resident_memory_bytes')).to.be.above(0);
    });

    it('count requests by operation and status, with latency histograms', async () => {
      const before = (await scrape(service.baseUrl)).value('ofctx_http_request_duration_seconds_count', { operation: 'getHealth', status: '200' }) ?? 0;
      for (let i = 0; i < 3; i++) expect((await call(service.baseUrl, 'GET', '/healthz')).status).to.equal(200);
      expect((await call(service.baseUrl, 'GET', '/no/such/path')).status).to.equal(404);
      const metrics = await scrape(service.baseUrl);
      expect(metrics.types.get('ofctx_http_request_duration_seconds')).to.equal('histogram');
      expect(metrics.value('ofctx_http_request_duration_seconds_count', { operation: 'getHealth', method: 'GET', status: '200' })).to.equal(before + 3);
      expect(metrics.value('ofctx_http_request_duration_seconds_bucket', { operation: 'getHealth', status: '200', le: '+Inf' })).to.equal(before + 3);
      expect(metrics.value('ofctx_http_request_duration_seconds_count', { operation: 'unmatched', status: '404' })).to.be.at.least(1);
    });

    it('count tokens issued, tokens refused by OAuth error, and rate-limit refusals', async () => {
      const tenant = await service.tenant();
      await tokenFor(service.baseUrl, tenant.client);
      const form = { grant_type: 'client_credentials', client_id: tenant.client.client_id, client_secret: 'wrong' };
      let answer;
      let refused = 0;
      for (;;) {
        answer = await call(service.baseUrl, 'POST', '/api/v1/oauth/token', { form });
        if (answer.status !== 401) break;
        refused++;
      }
      expect(answer.status).to.equal(429);
      expect(refused).to.equal(5); // TOKEN_RATE_LIMIT=6, one spent on the token issued
      const metrics = await scrape(service.baseUrl);
      expect(metrics.value('ofctx_oauth_tokens_issued_total')).to.equal(1);
      expect(metrics.value('ofctx_oauth_token_refusals_total', { error: 'invalid_client' })).to.equal(refused);
      expect(metrics.value('ofctx_oauth_token_refusals_total', { error: 'rate_limited' })).to.equal(1);
      expect(metrics.value('ofctx_rate_limit_refusals_total', { operation: 'createToken' })).to.equal(1);
    });

    it('count delivery attempts by outcome, and show the queue and the age of its oldest delivery', async () => {
      const tenant = await service.tenant();
      await service.subscribe(tenant, receiver.url);
      receiver.respond((request) => ({ status: receiver.deliveriesOf(request.headers['x-service-delivery-id'] as string).length === 1 ? 503 : 200 }));
      await service.emit(tenant);
      await waitFor('a delivered attempt', async () => (await scrape(service.baseUrl)).value('ofctx_webhook_delivery_attempts_total', { outcome: 'delivered' }));
      const metrics = await scrape(service.baseUrl);
      expect(metrics.value('ofctx_webhook_delivery_attempts_total', { outcome: 'retry', error_class: 'http_status' })).to.equal(1);
      expect(metrics.value('ofctx_webhook_delivery_attempts_total', { outcome: 'delivered', error_class: 'none' })).to.equal(1);
      expect(metrics.value('ofctx_webhook_deliveries_queued', { state: 'pending' })).to.equal(0);
      expect(metrics.value('ofctx_webhook_oldest_queued_delivery_age_seconds')).to.equal(0);

      // A receiver that hangs keeps its delivery queued: the gauges show it, and its age grows.
      const hung = await startReceiver(() => ({ status: 200, delayMs: 5_000 }));
      try {
        await service.subscribe(tenant, hung.url, ['resident.discharged']);
        await service.emit(tenant, { type: 'resident.discharged' });
        await waitFor('the queued delivery', async () => (await scrape(service.baseUrl)).value('ofctx_webhook_deliveries_queued', { state: 'sending' }));
        await new Promise((r) => setTimeout(r, 1100));
        expect((await scrape(service.baseUrl)).value('ofctx_webhook_oldest_queued_delivery_age_seconds')).to.be.at.least(1);
      } finally {
        await hung.close();
      }
    });

    it('count ingestion by source and outcome, keeping labels to short words', async () => {
      const { metrics } = service.running.app;
      metrics.ingest.inc({ source: 'hl7v2', outcome: 'applied' });
      metrics.ingest.inc({ source: 'hl7v2', outcome: 'applied' });
      metrics.ingest.inc({ source: 'x12', outcome: 'MRN 12345 rejected: Doe^Jane' });
      const scraped = await scrape(service.baseUrl);
      expect(scraped.value('ofctx_ingest_messages_total', { source: 'hl7v2', outcome: 'applied' })).to.equal(2);
      expect(scraped.value('ofctx_ingest_messages_total', { source: 'x12', outcome: 'other' })).to.equal(1);
    });

    it('never carry an id, a URL, a host or a name in any label', async () => {
      const tenant = await service.tenant();
      await service.seed.data({ orgId: tenant.orgId, facilityId: tenant.facilityId, residents: 2 });
      const residents = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${tenant.orgId}/${tenant.facilityId}/residents`, { token: tenant.token });
      const resident = residents.body.data[0];
      await call(service.baseUrl, 'GET', `/api/v1/ofctx/${tenant.orgId}/${tenant.facilityId}/residents/${resident.id}`, { token: tenant.token });
      const text = (await call(service.baseUrl, 'GET', '/metrics', { token: METRICS_TOKEN })).body as string;
      for (const secretish of [tenant.orgId, tenant.facilityId, resident.id, tenant.client.client_id, resident.name[0].family, '127.0.0.1', '/api/', '://']) {
        expect(text, secretish).not.to.include(secretish);
      }
      const labelValues = parsePrometheusText(text).samples.flatMap((s) => Object.entries(s.labels).filter(([name]) => name !== 'le' && name !== 'version').map(([, v]) => v));
      for (const value of labelValues) expect(value, 'a label value').to.match(/^[a-zA-Z0-9_.+-]{1,40}$/);
    });
  });

  describe('on METRICS_PORT', () => {
    let service: TestService;
    before(async () => (service = await startTestService({ env: { METRICS_PORT: '0', METRICS_HOST: '127.0.0.1' } })));
    after(async () => service?.close());

    it('serve /metrics on their own port and nothing else there; the API port answers 404', async () => {
      const port = service.running.metricsPort!;
      expect(port).to.be.a('number').and.not.equal(service.running.port);
      const answer = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(answer.status).to.equal(200);
      const metrics = parsePrometheusText(await answer.text());
      expect(metrics.types.get('ofctx_webhook_deliveries_queued')).to.equal('gauge');
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).to.equal(404);
      expect((await fetch(`http://127.0.0.1:${port}/metrics`, { method: 'POST' })).status).to.equal(405);
      const onApi = await call(service.baseUrl, 'GET', '/metrics', { token: METRICS_TOKEN });
      expect(onApi.status).to.equal(404);
      expect(onApi.body.error.message).to.match(/own port/);
    });
  });

  it('refuse to start when METRICS_PORT is taken, saying why', async () => {
    const taken = await startTestService({ env: { METRICS_PORT: '0', METRICS_HOST: '127.0.0.1' } });
    try {
      let failure: Error | undefined;
      const env = { METRICS_PORT: String(taken.running.metricsPort), METRICS_HOST: '127.0.0.1' };
      await startTestService({ env, database: taken.database }).then((s) => s.close(), (error: Error) => (failure = error));
      expect(failure?.message).to.match(/EADDRINUSE/);
    } finally {
      await taken.close();
    }
  });

  it('refuse a METRICS_TOKEN shorter than 32 characters (the service does not start)', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).to.throw(/METRICS_TOKEN must be at least 32 characters/);
  });
});
