// The error every layer throws; the error handler turns it into the envelope.
import { errorCatalogue, type ErrorCode } from './error-catalogue.js';

export interface ErrorDetail {
  field: string;
  issue: string;
}

export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly details: ErrorDetail[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message ?? errorCatalogue[code].message);
    this.name = 'ApiError';
    this.status = errorCatalogue[code].status;
  }
}
