// MLLP settings: off unless MLLP_PORT is set, loopback by default, TLS files in pairs, a bad
// allow-list refused at start, and a listener that cannot start fails the start.
import { expect } from 'chai';
import net from 'node:net';
import { loadConfig } from '../../src/config/config.js';
import { allowList } from '../../src/hl7/mllp-listener.js';
import { sourceFacilities } from '../../src/config/mllp-source-facilities.js';
import { startTestService } from '../../../test/support/service.js';

describe('MLLP configuration', function () {
  this.timeout(60_000);

  it('is off without MLLP_PORT and listens on loopback by default', () => {
    expect(loadConfig({}).mllp).to.equal(undefined);
    expect(loadConfig({ MLLP_PORT: '2575' }).mllp).to.deep.include({ port: 2575, host: '127.0.0.1', allowedSources: [], maxMessageBytes: 1024 * 1024, tls: undefined });
    expect(loadConfig({ MLLP_PORT: '2575', MLLP_ALLOWED_SOURCES: ' 10.0.0.0/8, ::1 ' }).mllp!.allowedSources).to.deep.equal(['10.0.0.0/8', '::1']);
  });

  it('limits connections by default: 5 s to the first byte, 16 per source, 64 in all, no reserve unless MLLP_RESERVED_SOURCES is set (then half)', () => {
    expect(loadConfig({ MLLP_PORT: '2575' }).mllp).to.deep.include({ firstByteTimeoutMs: 5000, maxConnections: 64, maxConnectionsPerSource: 16, reservedSources: [], reservedConnections: 0 });
    expect(loadConfig({ MLLP_PORT: '2575', MLLP_RESERVED_SOURCES: '10.20.0.0/16, 10.30.1.7' }).mllp).to.deep.include({ reservedSources: ['10.20.0.0/16', '10.30.1.7'], reservedConnections: 32 });
    expect(loadConfig({ MLLP_PORT: '2575', MLLP_MAX_CONNECTIONS: '9', MLLP_RESERVED_SOURCES: '10.30.1.7', MLLP_RESERVED_CONNECTIONS: '9' }).mllp!.reservedConnections).to.equal(9);
    expect(loadConfig({ MLLP_PORT: '2575', MLLP_FIRST_BYTE_TIMEOUT_MS: '0' }).mllp!.firstByteTimeoutMs).to.equal(0);
    expect(() => loadConfig({ MLLP_PORT: '2575', MLLP_RESERVED_CONNECTIONS: '4' })).to.throw(/needs MLLP_RESERVED_SOURCES/);
    expect(() => loadConfig({ MLLP_PORT: '2575', MLLP_MAX_CONNECTIONS: '8', MLLP_RESERVED_SOURCES: '10.30.1.7', MLLP_RESERVED_CONNECTIONS: '9' })).to.throw(/cannot be more than MLLP_MAX_CONNECTIONS/);
    expect(() => loadConfig({ MLLP_PORT: '2575', MLLP_FIRST_BYTE_TIMEOUT_MS: '50' })).to.throw(/0 \(off\) or at least 100/);
    expect(() => loadConfig({ MLLP_PORT: '2575', MLLP_MAX_CONNECTIONS_PER_SOURCE: '0' })).to.throw(/MLLP_MAX_CONNECTIONS_PER_SOURCE must be an integer >= 1/);
  });

  it('binds sources to one facility with MLLP_SOURCE_FACILITIES; a source bound to two has none; a bad entry is refused', () => {
    const bindings = loadConfig({ MLLP_PORT: '2575', MLLP_SOURCE_FACILITIES: '10.1.2.3=LAB ONE, 10.9.0.0/16=CLINIC, 10.9.1.1=OTHER' }).mllp!.sourceFacilities;
    expect(bindings).to.deep.equal([{ source: '10.1.2.3', facilityCode: 'LAB ONE' }, { source: '10.9.0.0/16', facilityCode: 'CLINIC' }, { source: '10.9.1.1', facilityCode: 'OTHER' }]);
    const bound = sourceFacilities(bindings);
    expect([bound('10.1.2.3'), bound('10.9.7.7'), bound('10.9.1.1'), bound('127.0.0.1')]).to.deep.equal(['LAB ONE', 'CLINIC', undefined, undefined]);
    expect(loadConfig({ MLLP_PORT: '2575' }).mllp!.sourceFacilities).to.deep.equal([]);
    expect(() => loadConfig({ MLLP_PORT: '2575', MLLP_SOURCE_FACILITIES: '10.1.2.3' })).to.throw(/MLLP_SOURCE_FACILITIES: "10.1.2.3" must be <address or network>=<facility HL7 code>/);
    expect(() => loadConfig({ MLLP_PORT: '2575', MLLP_SOURCE_FACILITIES: 'lab.example=LAB' })).to.throw(/MLLP_SOURCE_FACILITIES/);
  });

  it('a bad MLLP_RESERVED_SOURCES stops the start, naming the setting', async () => {
    let failure: unknown;
    await startTestService({ env: { MLLP_PORT: '0', MLLP_RESERVED_SOURCES: 'engine.example' } }).catch((error) => (failure = error));
    expect((failure as Error)?.message).to.match(/MLLP_RESERVED_SOURCES: "engine.example" is not an IP address/);
  });

  it('refuses TLS settings that do not go together', () => {
    expect(() => loadConfig({ MLLP_PORT: '2575', MLLP_TLS_CERT: '/c.pem' })).to.throw(/MLLP_TLS_CERT and MLLP_TLS_KEY go together/);
    expect(() => loadConfig({ MLLP_PORT: '2575', MLLP_TLS_CA: '/ca.pem' })).to.throw(/MLLP_TLS_CA needs/);
    expect(loadConfig({ MLLP_PORT: '2575', MLLP_TLS_CERT: '/c.pem', MLLP_TLS_KEY: '/k.pem', MLLP_TLS_CA: '/ca.pem' }).mllp!.tls).to.deep.equal({ certFile: '/c.pem', keyFile: '/k.pem', caFile: '/ca.pem' });
  });

  it('reads the allow-list with node:net BlockList, and refuses what is not an address or network', () => {
    const list = allowList(['10.0.0.0/8', '192.168.1.7', '::1'])!;
    expect(list.check('10.2.3.4', 'ipv4')).to.equal(true);
    expect(list.check('192.168.1.8', 'ipv4')).to.equal(false);
    expect(list.check('::1', 'ipv6')).to.equal(true);
    expect(() => allowList(['ehr.example'])).to.throw(/not an IP address/);
    expect(() => allowList(['10.0.0.0/40'])).to.throw(/bad prefix length/);
    expect(allowList([])).to.equal(undefined);
  });

  it('a service whose MLLP port is taken fails to start with EADDRINUSE', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as net.AddressInfo;
    try {
      let failure: unknown;
      await startTestService({ env: { MLLP_PORT: String(port) } }).catch((error) => (failure = error));
      expect((failure as { code?: string })?.code).to.equal('EADDRINUSE');
    } finally {
      blocker.close();
    }
  });
});
