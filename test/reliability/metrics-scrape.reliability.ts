// /metrics under the suite's load: the scrapes taken every 200 ms while the fuzzer, the
// tenancy worlds and the token attacks ran all parsed by the Prometheus text format's rules
// and carried no id, URL or secret; and what they count agrees with what the suite saw.
import { expect } from 'chai';
import { parsePrometheusText } from '../support/prometheus-text.js';
import { figures } from './support/figures.js';
import { stopMetricsScraper, SUITE_METRICS_TOKEN, suiteService } from './support/suite.js';

describe('metrics scraped during the suite', function () {
  this.timeout(30_000);

  it('parsed every time, with no id, URL or secret, and count what the suite did', async () => {
    const service = await suiteService();
    const scraper = (await stopMetricsScraper())!;
    console.log(`      ${figures.metrics.scrapes} scrapes during the suite, ${figures.metrics.failures} bad`);
    expect(scraper.problems).to.deep.equal([]);
    expect(figures.metrics.scrapes).to.be.above(0);
    // One more scrape, now that the suite's traffic is over, to compare with its figures.
    const answer = await fetch(`${service.baseUrl}/metrics`, { headers: { authorization: `Bearer ${SUITE_METRICS_TOKEN}` } });
    const last = parsePrometheusText(await answer.text());
    const total = (name: string, where: (labels: Record<string, string>) => boolean = () => true) =>
      last.samples.filter((s) => s.name === name && where(s.labels)).reduce((sum, s) => sum + s.value, 0);
    expect(total('ofctx_http_request_duration_seconds_count')).to.be.above(figures.fuzz.requests / 2);
    expect(total('ofctx_http_request_duration_seconds_count', (l) => l.status!.startsWith('5'))).to.equal(figures.responses5xx);
    expect(total('ofctx_oauth_token_refusals_total', (l) => l.error === 'rate_limited')).to.be.at.least(figures.token.throttled);
    expect(total('ofctx_oauth_tokens_issued_total')).to.be.above(0);
  });
});
