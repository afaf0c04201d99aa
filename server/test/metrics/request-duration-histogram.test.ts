// The request histogram must read exactly as prom-client's own Histogram would: same text
// exposition, same JSON, for the same observations (edges of buckets, above every bucket,
// several series in their order of first use), and reset empties it.
import { expect } from 'chai';
import { Histogram, Registry } from 'prom-client';
import { RequestDurationHistogram } from '../../src/metrics/request-duration-histogram.js';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const NAME = 'ofctx_http_request_duration_seconds';
const HELP = 'API requests by operation and status, with their latency.';

const OBSERVATIONS: Array<[operation: string, method: string, status: string, seconds: number]> = [
  ['getHealth', 'GET', '200', 0.0001],
  ['listCoverage', 'GET', '200', 0.005],
  ['getHealth', 'GET', '200', 0.0051],
  ['listCoverage', 'GET', '304', 0.3],
  ['unmatched', 'GET', '404', 12],
  ['getHealth', 'GET', '200', 10],
  ['createToken', 'POST', '401', 0],
  ['listCoverage', 'GET', '200', 1e-9],
];

function both(): { ours: RequestDurationHistogram; theirs: Histogram<'operation' | 'method' | 'status'>; ourRegistry: Registry; theirRegistry: Registry } {
  const ourRegistry = new Registry();
  const theirRegistry = new Registry();
  const ours = new RequestDurationHistogram({ name: NAME, help: HELP, buckets: BUCKETS, registers: [ourRegistry] });
  const theirs = new Histogram({ name: NAME, help: HELP, labelNames: ['operation', 'method', 'status'] as const, buckets: BUCKETS, registers: [theirRegistry] });
  return { ours, theirs, ourRegistry, theirRegistry };
}

describe('request duration histogram', () => {
  it('exposes the same Prometheus text as prom-client’s Histogram for the same observations', async () => {
    const { ours, theirs, ourRegistry, theirRegistry } = both();
    for (const [operation, method, status, seconds] of OBSERVATIONS) {
      ours.observe(operation, method, status, seconds);
      theirs.observe({ operation, method, status }, seconds);
    }
    const text = await ourRegistry.metrics();
    expect(text).to.equal(await theirRegistry.metrics());
    expect(text).to.include(`${NAME}_bucket{le="0.005",operation="listCoverage",method="GET",status="200"} 2`);
    expect(text).to.include(`${NAME}_count{operation="unmatched",method="GET",status="404"} 1`);
  });

  it('gives the same JSON as prom-client’s Histogram', async () => {
    const { ours, theirs, ourRegistry, theirRegistry } = both();
    for (const [operation, method, status, seconds] of OBSERVATIONS) {
      ours.observe(operation, method, status, seconds);
      theirs.observe({ operation, method, status }, seconds);
    }
    expect(await ourRegistry.getMetricsAsJSON()).to.deep.equal(await theirRegistry.getMetricsAsJSON());
  });

  it('exposes only its help and type before any observation, as prom-client does', async () => {
    const { ourRegistry, theirRegistry } = both();
    expect(await ourRegistry.metrics()).to.equal(await theirRegistry.metrics());
  });

  it('is emptied by the registry’s resetMetrics', async () => {
    const { ours, ourRegistry, theirRegistry } = both();
    ours.observe('getHealth', 'GET', '200', 0.001);
    ourRegistry.resetMetrics();
    expect(await ourRegistry.metrics()).to.equal(await theirRegistry.metrics());
  });

  it('refuses a latency that is not a finite number, as prom-client does', () => {
    const { ours } = both();
    expect(() => ours.observe('getHealth', 'GET', '200', Number.NaN)).to.throw(TypeError, /not a valid number/);
  });
});
