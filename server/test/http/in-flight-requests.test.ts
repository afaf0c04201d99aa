// Stopping waits for the requests being handled, even those whose client has hung up: the
// database closes after their last statement, and nothing is logged as an unexpected error.
import { expect } from 'chai';
import { connect } from 'node:net';
import { startTestService } from '../../../test/support/service.js';
import { tokenFor } from '../../../test/support/http.js';
import { createTestDatabase } from '../../../test/support/database.js';
import { openDatabase } from '../../src/db/database.js';
import { InFlightRequests } from '../../src/http/in-flight-requests.js';

describe('requests in flight', () => {
  it('counts a request until its handler ends, and tells when none is left', async () => {
    const inFlight = new InFlightRequests();
    inFlight.enter();
    expect(inFlight.size).to.equal(1);
    let drained = false;
    const waited = inFlight.drained().then(() => (drained = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(drained).to.equal(false);
    inFlight.leave();
    await waited;
    expect(inFlight.size).to.equal(0);
    await inFlight.drained();
  });

  it('stops after the handler of a client that hung up, which still writes its token', async function () {
    this.timeout(20_000);
    const database = await createTestDatabase();
    const service = await startTestService({ database });
    try {
      const org = await service.seed.org();
      const facility = await service.seed.facility(org.id);
      const client = await service.seed.client({ orgId: org.id, facilityIds: [facility.id], scopes: ['residents.read'] });
      const body = 'grant_type=client_credentials';
      // A first token: the form parser is loaded on the first request with a body.
      expect((await tokenFor(service.baseUrl, client)).length).to.be.greaterThan(0);
      // The token handler verifies the secret with scrypt (tens of milliseconds), then writes the token.
      const socket = connect(Number(new URL(service.baseUrl).port), '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /api/v1/oauth/token HTTP/1.1\r\nHost: x\r\nAuthorization: Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}\r\n` +
          `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      while (service.running.app.inFlight.size === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      // The body is read within a millisecond; the client hangs up while scrypt runs.
      await new Promise((resolve) => setTimeout(resolve, 10));
      socket.destroy();
      await service.running.close();
      expect(service.running.app.inFlight.size).to.equal(0);
      expect(service.logs()).to.not.match(/"level":50/);
      // The handler ran to its end before the database closed: its token is stored.
      const db = openDatabase(database.url);
      try {
        expect(Number((await db('access_tokens').count({ n: '*' }).first())!.n)).to.equal(2);
      } finally {
        await db.destroy();
      }
    } finally {
      await database.drop();
    }
  });
});
