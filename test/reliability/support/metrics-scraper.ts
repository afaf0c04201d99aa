// Scrapes /metrics every 200 ms for as long as the suite's service runs, the way Prometheus
// would while the fuzzer, the tenancy worlds and the token attacks load it. Every scrape must
// parse by the text format's rules and carry no id, URL or secret; the figures count them.
// The exposition grows with the suite (a latency histogram per operation and status the
// fuzzer reached), and a scrape and its checks run in the service's own process: the pause
// after each is at least nine times what it took, so scraping never takes more than a tenth
// of the suite's time (at 200 ms flat, it took most of a core by the suite's end).
import { parsePrometheusText } from '../../support/prometheus-text.js';
import { figures } from './figures.js';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const INTERVAL_MS = 200;
const PAUSE_PER_SCRAPE_MS = 9;

export interface MetricsScraper {
  stop(): Promise<void>;
  /** What was wrong with any scrape (first few). */
  problems: string[];
}

export function startMetricsScraper(baseUrl: string, token: string, secrets: () => string[]): MetricsScraper {
  let running = true;
  const scraper: MetricsScraper = { problems: [], stop: async () => {} };
  const note = (problem: string) => {
    figures.metrics.failures++;
    if (scraper.problems.length < 5) scraper.problems.push(problem);
  };
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const answer = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
        const text = await answer.text();
        figures.metrics.scrapes++;
        if (answer.status !== 200) note(`scrape answered ${answer.status}`);
        else {
          parsePrometheusText(text);
          if (UUID.test(text)) note(`a scrape carries an id: ${UUID.exec(text)![0]}`);
          if (text.includes('://')) note('a scrape carries a URL');
          const leaked = secrets().find((secret) => text.includes(secret));
          if (leaked) note('a scrape carries a secret');
        }
      } catch (error) {
        if (running) note(`scrape failed: ${(error as Error).message}`);
      }
      await new Promise((r) => setTimeout(r, Math.max(INTERVAL_MS, PAUSE_PER_SCRAPE_MS * (performance.now() - started))));
    }
  })();
  scraper.stop = async () => {
    running = false;
    await loop;
  };
  return scraper;
}
