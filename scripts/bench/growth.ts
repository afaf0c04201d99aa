// How the cost of a request grows with the data: the observation list (page 1 and the last
// page), one resident's observations, and the read of one observation, in a facility of
// ~10^4 and of ~10^6 observations (12 per resident: 2 rounds of 6 vital signs, so only the
// size differs). One request at a time, so the latency is the request's own and not a queue's.
import { statSync } from 'node:fs';
import { measureLatency, type LatencyResult } from './latency.js';
import { seededDatabase, workingCopy, type SeedParameters } from './seeded-database.js';
import { accessToken, startServiceProcess } from './service-process.js';
import type { BenchSettings } from './settings.js';

export const GROWTH_SIZES: Array<{ label: string } & SeedParameters> = [
  { label: '10^4', residents: 834, vitalRounds: 2 },
  { label: '10^6', residents: 83_334, vitalRounds: 2 },
];

export const GROWTH_REQUESTS = ['list page 1', 'list last page', "one resident's list", 'read one'] as const;
export type GrowthRequest = (typeof GROWTH_REQUESTS)[number];

export interface GrowthSize {
  label: string;
  observations: number;
  residents: number;
  seedSeconds: number;
  seededThisRun: boolean;
  databaseMiB: number;
  lastPage: number;
  results: Record<GrowthRequest, LatencyResult>;
}

export interface GrowthResult {
  sizes: GrowthSize[];
}

const PAGE_SIZE = 50;

export async function growth(settings: BenchSettings): Promise<GrowthResult> {
  const { log } = settings;
  const sizes: GrowthSize[] = [];
  for (const size of GROWTH_SIZES) {
    const seeded = await seededDatabase(size, log);
    log(`  ${seeded.counts.observations.toLocaleString('en-US')} observations${seeded.fromCache ? ' (cached database)' : `, seeded in ${seeded.seedSeconds.toFixed(0)} s`}`);
    const copy = workingCopy(seeded);
    try {
      const service = await startServiceProcess({ databaseUrl: copy.databaseUrl });
      try {
        const headers = { authorization: `Bearer ${await accessToken(service.url, seeded.client)}`, accept: 'application/json' };
        const base = `${service.url}/api/v1/ofctx/${seeded.orgId}/${seeded.facilityId}/clinical/Observation`;
        const lastPage = Math.ceil(seeded.counts.observations / PAGE_SIZE);
        // A resident and an observation from the middle of the table, not its first rows.
        const middle = (await (await fetch(`${base}?page_size=${PAGE_SIZE}&page=${Math.ceil(lastPage / 2)}`, { headers })).json()) as {
          data: Array<{ id: string; subject: { reference: string } }>;
        };
        const sample = middle.data[0]!;
        const residentId = sample.subject.reference.replace('Patient/', '');
        const urls: Record<GrowthRequest, string> = {
          'list page 1': `${base}?page_size=${PAGE_SIZE}`,
          'list last page': `${base}?page_size=${PAGE_SIZE}&page=${lastPage}`,
          "one resident's list": `${base}?page_size=${PAGE_SIZE}&resident_id=${residentId}`,
          'read one': `${base}/${sample.id}`,
        };
        const results = {} as Record<GrowthRequest, LatencyResult>;
        for (const request of GROWTH_REQUESTS) {
          log(`  ${size.label} observations: ${request}`);
          results[request] = await measureLatency({ url: urls[request], headers, durationSeconds: settings.durationSeconds, warmupSeconds: 1 });
        }
        sizes.push({
          label: size.label,
          observations: seeded.counts.observations,
          residents: seeded.counts.residents,
          seedSeconds: seeded.seedSeconds,
          seededThisRun: !seeded.fromCache,
          databaseMiB: statSync(seeded.file).size / 2 ** 20,
          lastPage,
          results,
        });
      } finally {
        await service.stop();
      }
    } finally {
      copy.remove();
    }
  }
  return { sizes };
}
