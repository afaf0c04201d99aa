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

export function failure(error: ApiError, requestId: string) {
  return {
    data: null,
    meta: null,
    error: { code: error.code, message: error.message, details: error.details, request_id: requestId },
  };
}
