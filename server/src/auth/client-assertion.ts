// private_key_jwt client authentication (RFC 7523 section 2.2, SMART Backend Services):
// a JWT signed by the client with a key it registered. Every check that fails throws
// AssertionRejected with the reason for the log; the caller answers only `invalid_client`.
// The algorithm is checked against the allow-list BEFORE any key is looked up, so `none`
// and HS256-with-the-public-key-as-secret never reach a verifier.
import type { Knex } from 'knex';
import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { findActiveClientWithKeys, type ClientRecord } from './clients.js';
import type { AssertionReplayGuard } from './assertion-replay.js';
import type { ClientKeySets } from './client-keys.js';

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
export const ASSERTION_ALGORITHMS = ['RS384', 'ES384'] as const;
/** SMART: `exp` no more than five minutes in the future. */
const MAX_LIFETIME_SECONDS = 300;
/** Allowed clock difference between the client and us. */
const CLOCK_TOLERANCE_SECONDS = 30;
const MAX_JTI_LENGTH = 255;

export class AssertionRejected extends Error {}

export interface AssertionDeps {
  db: Knex;
  keys: ClientKeySets;
  replay: AssertionReplayGuard;
  now?: () => number;
}

function reject(reason: string): never {
  throw new AssertionRejected(reason);
}

/**
 * Authenticates the client of an assertion. `audiences` are the token URLs the assertion
 * may name; `clientId` is the body's client_id when one was sent (it must match).
 */
export async function authenticateAssertion(deps: AssertionDeps, assertion: string, audiences: string[], clientId?: string): Promise<ClientRecord> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  let claims: ReturnType<typeof decodeJwt>;
  try {
    header = decodeProtectedHeader(assertion);
    claims = decodeJwt(assertion);
  } catch {
    reject('the assertion is not a signed JWT');
  }
  if (!(ASSERTION_ALGORITHMS as readonly string[]).includes(header.alg ?? '')) reject(`algorithm "${String(header.alg)}" is not allowed (RS384 or ES384)`);
  if (typeof header.kid !== 'string' || header.kid === '') reject('the header has no kid');
  if (typeof claims.iss !== 'string' || claims.iss !== claims.sub) reject('iss and sub must both be the client id');
  if (clientId !== undefined && clientId !== claims.iss) reject('client_id differs from the assertion issuer');
  const client = await findActiveClientWithKeys(deps.db, claims.iss);
  if (!client) reject('no active credential with public keys has this client id');

  let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
  const now = deps.now ?? Date.now;
  try {
    ({ payload } = await jwtVerify(assertion, deps.keys.resolverFor(client.keys), {
      algorithms: [...ASSERTION_ALGORITHMS],
      issuer: client.record.client_id,
      subject: client.record.client_id,
      audience: audiences,
      requiredClaims: ['exp', 'jti'],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: new Date(now()),
    }));
  } catch (error) {
    reject(`${(error as { code?: string }).code ?? 'ERR'}: ${(error as Error).message}`);
  }
  const nowSeconds = Math.floor(now() / 1000);
  if (payload.exp! > nowSeconds + MAX_LIFETIME_SECONDS + CLOCK_TOLERANCE_SECONDS) reject('exp is more than 5 minutes ahead');
  if (typeof payload.jti !== 'string' || payload.jti === '' || payload.jti.length > MAX_JTI_LENGTH) reject(`jti must be a string of 1 to ${MAX_JTI_LENGTH} characters`);
  if (!(await deps.replay.consume(client.record.client_id, payload.jti, (payload.exp! + CLOCK_TOLERANCE_SECONDS) * 1000))) reject('jti was already used');
  return client.record;
}
