// Tenancy on every operation of the contract, read from the document itself: each secured
// operation's valid request (test/support/contract-operations.ts) is sent first with each
// credential it must refuse, then with the tenant's own. No credential, a revoked one: 401.
// Another organization's, a facility the credential is not granted, the other kind of
// credential (a partner's at ingestion, a system of record's elsewhere): 403 or 404. The
// operators' console of another organization: its pages name none of this tenant's records,
// and its actions on them find nothing. No refusal carries a record id of the tenant it did
// not already hold. The tenant's own request then succeeds, so each refusal is the
// credential's doing, not a wrong path; and where its answer names a resident, its audit row
// puts it in the accounting of disclosures.
import { expect } from 'chai';
import { revokeClient } from '../../src/auth/clients.js';
import { tokenFor, type TestResponse } from '../../../test/support/http.js';
import { ALL_SCOPES, startTestService, type TestService } from '../../../test/support/service.js';
import { seedRecordsOfEveryKind, type RecordsOfEveryKind } from '../../../test/support/records-of-every-kind.js';
import { contractOperations, isIngestOperation, namedBeyond, securityOf, sendRequest, textOf, validRequestOf, type ContractOperation, type ValidRequest } from '../../../test/support/contract-operations.js';
import { consoleLinkToken, signInToConsole } from '../../../test/support/console.js';

/** What the tenant's own valid request is answered where it is not a success, and why. */
const OWN_ANSWER_NOT_2XX: Record<string, number> = {
  // The sign-in form's valid body names no live one-time link.
  consoleSignIn: 401,
  // The delivery the seed queued is still queued.
  redeliverWebhookDelivery: 409,
};

interface Foreign {
  what: string;
  request: ValidRequest;
  /** The statuses it may be answered. */
  expected: number[];
}

describe('tenancy on every operation', function () {
  this.timeout(120_000);
  let service: TestService;
  let every: RecordsOfEveryKind;
  let revokedToken: string;
  let otherConsole: { cookie: string; csrfToken: string };
  let residents: string[];

  before(async () => {
    service = await startTestService({ env: { CLIENT_QUOTA_RATE: '1000000', CLIENT_QUOTA_BURST: '1000000', BULK_EXPORT_MAX_JOBS_PER_CLIENT: '20' } });
    every = await seedRecordsOfEveryKind(service);
    const db = service.running.app.db;
    const revoked = await service.seed.client({ orgId: every.t.orgA, facilityIds: [every.t.a1], scopes: ALL_SCOPES, name: 'revoked' });
    revokedToken = await tokenFor(service.baseUrl, revoked);
    await revokeClient(db, revoked.client_id);
    const browser = await signInToConsole(service.baseUrl, await consoleLinkToken(db, every.t.orgB));
    otherConsole = { cookie: browser.cookie, csrfToken: await browser.csrfToken() };
    residents = await db('residents').where({ org_id: every.t.orgA }).pluck('id');
  });
  after(() => service?.close());

  function foreignRequests(op: ContractOperation, valid: ValidRequest): Foreign[] {
    const { t } = every;
    const foreign: Foreign[] = [];
    const withHeaders = (headers: Record<string, string>, request: Partial<ValidRequest> = {}): ValidRequest => {
      const rest = Object.fromEntries(Object.entries(valid.headers).filter(([name]) => name !== 'authorization' && name !== 'cookie'));
      return { ...valid, ...request, headers: { ...rest, ...headers } };
    };
    if (op.template.startsWith('/console')) {
      foreign.push({ what: 'no console session', request: withHeaders({}), expected: [401] });
      const body = valid.body?.replace(every.csrfToken, otherConsole.csrfToken);
      // Another organization's session: a page naming one of this tenant's records, or an action on one, finds nothing.
      const namesRecord = /\{[a-z_]+_id\}/.test(op.template) || Object.values(every.ids).some((id) => valid.body?.includes(id));
      foreign.push({ what: "another organization's console session", request: withHeaders({ cookie: otherConsole.cookie }, { ...(body === undefined ? {} : { body }) }), expected: namesRecord ? [404] : [200, 303] });
      return foreign;
    }
    foreign.push({ what: 'no credential', request: withHeaders({}), expected: [401] });
    foreign.push({ what: 'a revoked credential', request: withHeaders({ authorization: `Bearer ${revokedToken}` }), expected: [401] });
    foreign.push({ what: "another organization's credential", request: withHeaders({ authorization: `Bearer ${t.otherOrgToken}` }), expected: [403, 404] });
    const otherKind = isIngestOperation(op.operation) ? t.fullToken : every.ingestToken;
    foreign.push({ what: 'the other kind of credential', request: withHeaders({ authorization: `Bearer ${otherKind}` }), expected: [403] });
    if (op.template.includes('{facility_id}')) {
      const path = valid.path.split('/').map((part) => (part === t.a1 ? t.a2 : part)).join('/');
      foreign.push({ what: 'a facility not granted', request: { ...valid, path }, expected: [403, 404] });
    }
    return foreign;
  }

  const send = (request: ValidRequest): Promise<TestResponse> => sendRequest(service.baseUrl, request);
  /** The tenant's record ids in an answer that were not in its request. */
  const leakedIds = (answer: TestResponse, request: ValidRequest) => namedBeyond(textOf(answer), request, Object.values(every.ids).filter((id) => id.length >= 8));

  // Public operations, and the two each with a credential of its own (the token endpoint's
  // client authentication, the metrics token), are refused or not by tests of their own.
  const secured = contractOperations().filter((op) => {
    const schemes = securityOf(op.operation).flatMap((requirement) => Object.keys(requirement));
    return schemes.length > 0 && !schemes.includes('clientBasic') && !schemes.includes('metricsToken');
  });

  it('covers every secured operation of the contract', () => {
    expect(secured.length).to.be.at.least(80);
  });

  for (const op of secured) {
    it(`${op.operation.operationId}: refused to every credential but the tenant's own, which it answers, accounting what it discloses`, async () => {
      const valid = validRequestOf(op, every);
      const failures: string[] = [];
      for (const { what, request, expected } of foreignRequests(op, valid)) {
        const answer = await send(request);
        if (!expected.includes(answer.status)) failures.push(`${what}: ${answer.status}, expected ${expected.join(' or ')}`);
        const leaked = leakedIds(answer, request);
        if (leaked.length > 0) failures.push(`${what}: the answer names ${leaked.join(', ')}`);
      }
      const own = await send(valid);
      const ownExpected = OWN_ANSWER_NOT_2XX[op.operation.operationId];
      if (ownExpected === undefined ? own.status < 200 || own.status > 399 : own.status !== ownExpected) failures.push(`the tenant's own: ${own.status} ${JSON.stringify(own.body).slice(0, 300)}`);
      // An answer naming a resident the request did not name discloses them to the partner:
      // its audit row must say so, for the accounting of disclosures (the operators' console
      // is not a partner).
      if (!op.template.startsWith('/console')) {
        const named = namedBeyond(textOf(own), valid, residents);
        if (named.length > 0) {
          const row = await service.running.app.db('audit_events').where({ request_id: own.headers.get('x-request-id') }).first('disclosures', 'disclosures_digest');
          if (!row || (row.disclosures === null && row.disclosures_digest === null)) failures.push(`the tenant's own: names ${named.length} resident(s), and its audit row discloses no one`);
        }
      }
      expect(failures, failures.join('\n')).to.deep.equal([]);
    });
  }
});
