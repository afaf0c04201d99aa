// Reads a whole facility through the SDK: residents first (so every other record can be
// matched to its resident), then coverage, observations and allergies, each walked page by
// page with the SDK's async iterators. The three walks after the residents are independent
// and run side by side; each one still asks for its next page only once it has consumed the
// previous one, so memory stays flat whatever the facility's size.
import type { FacilityClient, Page } from '@ofctx/sdk';
import { FacilitySummary } from './facility-summary.js';

export type ListName = 'residents' | 'coverage' | 'observations' | 'allergies';

/** Told after every page, for progress reports. */
export type PageListener = (list: ListName, page: Page<unknown>, seen: number) => void;

/** 200 is the API's largest page: the fewest round trips. */
const PAGE_SIZE = 200;

async function walk<T>(list: ListName, pages: AsyncIterable<Page<T>>, add: (item: T) => void, summary: FacilitySummary, onPage: PageListener): Promise<void> {
  let seen = 0;
  for await (const page of pages) {
    for (const item of page.data) add(item);
    seen += page.data.length;
    summary.pages[list] += 1;
    onPage(list, page, seen);
  }
}

export async function readFacility(facility: FacilityClient, onPage: PageListener = () => {}, signal?: AbortSignal): Promise<FacilitySummary> {
  const summary = new FacilitySummary(facility.orgId, facility.facilityId);
  const options = { pageSize: PAGE_SIZE, signal };
  await walk('residents', facility.residents.pages(options), (r) => summary.addResident(r), summary, onPage);
  await Promise.all([
    walk('coverage', facility.coverage.pages(options), (c) => summary.addCoverage(c), summary, onPage),
    walk('observations', facility.observations.pages(options), (o) => summary.addObservation(o), summary, onPage),
    walk('allergies', facility.allergies.pages(options), (a) => summary.addAllergy(a), summary, onPage),
  ]);
  return summary;
}
