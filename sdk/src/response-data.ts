// Turns an openapi-fetch result into its data, or throws the typed error.
import type { components } from './generated/openapi.js';
import { errorFromResponse, OfctxError } from './errors.js';
import { type Page, pageFromEnvelope } from './pagination.js';

/** The shape every openapi-fetch call resolves to. */
export interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The parsed body of a successful answer; the typed OfctxError of a failed one. */
export async function dataOf<T>(call: Promise<FetchResult<T>>): Promise<T> {
  let result: FetchResult<T>;
  try {
    result = await call;
  } catch (error) {
    // openapi-fetch parses a 2xx body as JSON; a proxy's HTML page fails that parse.
    if (error instanceof SyntaxError) {
      throw new OfctxError({ message: `The API answered with a body that is not JSON: ${error.message}`, code: 'unexpected_response', cause: error });
    }
    throw error;
  }
  const { data, error, response } = result;
  if (!response.ok) throw errorFromResponse(response, error);
  if (data === undefined) {
    throw new OfctxError({
      message: `The API answered HTTP ${response.status} without a body.`,
      code: 'unexpected_response',
      status: response.status,
      requestId: response.headers.get('x-request-id') ?? undefined,
      headers: response.headers,
    });
  }
  return data;
}

/** The page of a list answer. */
export async function pageOf<T>(call: Promise<FetchResult<{ data: T[]; meta: components['schemas']['PageMeta'] }>>): Promise<Page<T>> {
  return pageFromEnvelope(await dataOf(call));
}

/** The `data` of a success envelope: the resource of a read, the record of a webhook operation. */
export async function envelopeData<T>(call: Promise<FetchResult<{ data: T }>>): Promise<T> {
  return (await dataOf(call)).data;
}
