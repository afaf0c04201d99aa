// An organization for webhook reliability runs: several facilities and several credentials,
// each granted some of them, so events fan out (or not) by facility grant and event type.
// Subscriptions are registered through the real API, every answer checked against the
// contract (call()). Works on any database handle: an in-process service's or, for a
// spawned server, the test's own connection to the same database.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { expect } from 'chai';
import { call } from '../../../support/http.js';
import { AccessTokens } from '../../../../server/src/auth/access-tokens.js';
import { createClient, findClient } from '../../../../server/src/auth/clients.js';
import { createFacility, createOrganization } from '../../../../server/src/organizations/organizations.js';
import { emitEvent, type EmittedEvent, type EventInput } from '../../../../server/src/webhooks/event-outbox.js';
import { EVENT_TYPES, type EventType } from '../../../../server/src/db/event-types.js';

export const ALL_EVENT_TYPES: EventType[] = EVENT_TYPES.map((t) => t.event_type);

export interface World {
  orgId: string;
  facilityIds: string[];
  /** One per credential: its token and the facility indexes it is granted. */
  clients: Array<{ token: string; facilities: number[] }>;
}

export interface Registered {
  id: string;
  secret: string;
  client: number;
  eventTypes: EventType[];
  callbackUrl: string;
}

export async function createWorld(db: Knex, o: { facilities: number; grants: number[][] }): Promise<World> {
  const org = await createOrganization(db, `Reliability Webhooks ${randomUUID().slice(0, 8)}`);
  const facilityIds: string[] = [];
  for (let i = 0; i < o.facilities; i++) facilityIds.push((await createFacility(db, org.id, `Facility ${i}`)).id);
  const tokens = new AccessTokens(db, 0);
  const clients: World['clients'] = [];
  for (const [i, grant] of o.grants.entries()) {
    const issued = await createClient(db, { orgId: org.id, facilityIds: grant.map((f) => facilityIds[f]!), scopes: ['webhooks.manage'], name: `reliability client ${i}` });
    // Issued directly (the token endpoint is another part's subject): saves a scrypt check.
    const { token } = await tokens.issue((await findClient(db, issued.client_id))!, ['webhooks.manage']);
    clients.push({ token, facilities: grant });
  }
  return { orgId: org.id, facilityIds, clients };
}

/** Registers through POST /webhooks (contract-checked) and expects 201. */
export async function register(baseUrl: string, world: World, client: number, callbackUrl: string, eventTypes: EventType[] = ALL_EVENT_TYPES): Promise<Registered> {
  const answer = await call(baseUrl, 'POST', `/api/v1/ofctx/${world.orgId}/webhooks`, {
    token: world.clients[client]!.token,
    json: { callback_url: callbackUrl, event_types: eventTypes },
  });
  expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
  return { id: answer.body.data.id, secret: answer.body.data.signing_secret, client, eventTypes, callbackUrl };
}

/** Which registered subscriptions an event should fan out to: type listed and facility granted. */
export function expectedTargets(world: World, subscriptions: Registered[], type: EventType, facility: number): Set<string> {
  return new Set(subscriptions.filter((s) => s.eventTypes.includes(type) && world.clients[s.client]!.facilities.includes(facility)).map((s) => s.id));
}

export interface EmittedRecord extends EmittedEvent {
  type: EventType;
  facility: number;
  startedAt: number;
  returnedAt: number;
}

export type Emitter = (input: EventInput) => Promise<EmittedEvent>;

/** The outbox on a database handle, as another process (the ops CLI, say) would emit. */
export const outboxOn = (db: Knex): Emitter => (input) => emitEvent(db, input);

/** Emits one event (through RunningService.webhooks.emitEvent, or outboxOn) and times it. */
export async function emitWith(emit: Emitter, world: World, type: EventType, facility: number): Promise<EmittedRecord> {
  const startedAt = Date.now();
  const emitted = await emit({ orgId: world.orgId, facilityId: world.facilityIds[facility]!, type, residentId: randomUUID() });
  return { ...emitted, type, facility, startedAt, returnedAt: Date.now() };
}
