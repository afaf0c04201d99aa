// The `{ data, meta, error }` envelope of every resource and webhook-management answer.
import type { ApiError } from '../errors/api-error.js';

export interface PageInfo {
  page: number;
  page_size: number;
  total: number;
}

export function single<T>(data: T) {
  return { data, meta: null, error: null };
}

export function list<T>(data: T[], page: PageInfo) {
  return { data, meta: { page }, error: null };
}

/** `JSON.stringify(list(data, page))`, from the items' JSON texts (http/rendered-rows.ts). */
export function listText(itemTexts: readonly string[], page: PageInfo): string {
  return `{"data":[${itemTexts.join(',')}],"meta":{"page":${JSON.stringify(page)}},"error":null}`;
}

export function failure(error: ApiError, requestId: string) {
  return {
    data: null,
    meta: null,
    error: { code: error.code, message: error.message, details: error.details, request_id: requestId },
  };
}
