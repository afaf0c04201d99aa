// A real service for webhook tests: test/support/service.ts's service with fast retry and
// poll settings, a fixed encryption key, an optional simulated DNS resolver, and helpers to
// make a tenant with a webhooks.manage credential, register subscriptions and emit events.
import { randomUUID } from 'node:crypto';
import { createFacility, createOrganization } from '../../../src/organizations/organizations.js';
import { createClient, findClient, type IssuedClient } from '../../../src/auth/clients.js';
import type { HostResolver } from '../../../src/webhooks/ssrf-guard.js';
import type { EventInput } from '../../../src/webhooks/event-outbox.js';
import type { TestDatabase } from '../../../../test/support/database.js';
import { call, type TestResponse } from '../../../../test/support/http.js';
import { ALL_SCOPES, startTestService, type TestService } from '../../../../test/support/service.js';

export { ALL_SCOPES };

/** A fixed test key (base64 of 32 bytes); tests never need the development key file. */
export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');

export const FAST_WEBHOOK_ENV: Record<string, string> = {
  WEBHOOK_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
  WEBHOOK_RETRY_SCHEDULE: '0,0,0',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_LEASE_MS: '3000',
};

export interface Tenant {
  orgId: string;
  facilityId: string;
  /** A facility of the same organization that the client is NOT granted. */
  otherFacilityId: string;
  client: IssuedClient;
  token: string;
}

export interface WebhookTestService extends TestService {
  /** A new organization with two facilities and a client granted the first, all scopes. */
  tenant(scopes?: string[]): Promise<Tenant>;
  /** Registers through the API; the answer is contract-checked. */
  register(tenant: Tenant, body: Record<string, unknown>): Promise<TestResponse>;
  /** Registers and expects 201: the created subscription, with its secret. */
  subscribe(tenant: Tenant, callbackUrl: string, eventTypes?: string[]): Promise<{ id: string; signing_secret: string; standard_webhooks_secret: string }>;
  emit(tenant: Tenant, overrides?: Partial<EventInput>): Promise<{ event_id: string; deliveries: number }>;
}

export async function startWebhookService(
  options: { env?: Record<string, string>; database?: TestDatabase; resolveHost?: HostResolver } = {},
): Promise<WebhookTestService> {
  const base = await startTestService({
    env: { ...FAST_WEBHOOK_ENV, ...options.env },
    database: options.database,
    webhooks: options.resolveHost ? { resolveHost: options.resolveHost } : {},
  });
  const { running } = base;
  const db = running.app.db;
  const service: WebhookTestService = {
    ...base,
    async tenant(scopes = ALL_SCOPES) {
      const org = await createOrganization(db, `Webhook Org ${randomUUID().slice(0, 8)}`);
      const facility = await createFacility(db, org.id, 'Granted Facility');
      const other = await createFacility(db, org.id, 'Other Facility');
      const client = await createClient(db, { orgId: org.id, facilityIds: [facility.id], scopes, name: 'webhook test client' });
      // Issued directly (the token endpoint is tested elsewhere): saves a scrypt verification per tenant.
      const { token } = await running.app.tokens.issue((await findClient(db, client.client_id))!, scopes);
      return { orgId: org.id, facilityId: facility.id, otherFacilityId: other.id, client, token };
    },
    register: (tenant, body) => call(running.url, 'POST', `/api/v1/ofctx/${tenant.orgId}/webhooks`, { token: tenant.token, json: body }),
    async subscribe(tenant, callbackUrl, eventTypes = ['resident.admitted']) {
      const answer = await service.register(tenant, { callback_url: callbackUrl, event_types: eventTypes });
      if (answer.status !== 201) throw new Error(`registration failed: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body.data;
    },
    emit: (tenant, overrides = {}) =>
      running.webhooks.emitEvent({ orgId: tenant.orgId, facilityId: tenant.facilityId, type: 'resident.admitted', residentId: randomUUID(), ...overrides }),
  };
  return service;
}
