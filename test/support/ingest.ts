// Posting to the ingest endpoint from tests: a Bundle or NDJSON, answers checked against the contract.
import { call, type TestResponse } from './http.js';

export const ingestPath = (orgId: string, facilityId: string) => `/api/v1/ingest/${orgId}/${facilityId}/fhir`;

export function bundle(type: 'transaction' | 'batch', entries: Array<{ resource: Record<string, unknown>; fullUrl?: string; request?: Record<string, unknown> }>) {
  return {
    resourceType: 'Bundle',
    type,
    entry: entries.map((e) => {
      const identifier = (e.resource.identifier as Array<{ system: string; value: string }> | undefined)?.[0];
      const request = e.request ?? { method: 'PUT', url: `${e.resource.resourceType as string}?identifier=${identifier!.system}|${identifier!.value}` };
      return { ...(e.fullUrl ? { fullUrl: e.fullUrl } : {}), resource: e.resource, request };
    }),
  };
}

export function postBundle(baseUrl: string, token: string | undefined, orgId: string, facilityId: string, body: unknown): Promise<TestResponse> {
  return call(baseUrl, 'POST', ingestPath(orgId, facilityId), {
    ...(token ? { token } : {}),
    headers: { 'content-type': 'application/fhir+json', accept: 'application/fhir+json' },
    rawBody: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export function postNdjson(baseUrl: string, token: string, orgId: string, facilityId: string, lines: Array<unknown>): Promise<TestResponse> {
  return call(baseUrl, 'POST', ingestPath(orgId, facilityId), {
    token,
    headers: { 'content-type': 'application/fhir+ndjson' },
    rawBody: lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n',
  });
}
