// Structured JSON logs (pino). Anything that could carry a secret, a token or patient data
// is redacted by path, and request logs carry only the operation, never URLs or bodies.
import { pino, type Logger } from 'pino';
import { safeErrorSummary } from './safe-error.js';

export type { Logger };

export const REDACTED_PATHS = [
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'client_secret',
  '*.client_secret',
  'access_token',
  '*.access_token',
  'signing_secret',
  '*.signing_secret',
  'standard_webhooks_secret',
  '*.standard_webhooks_secret',
  'client_assertion',
  '*.client_assertion',
  'secret',
  '*.secret',
  'body',
  '*.body',
];

/**
 * An error given as `err` is logged as its safe summary (logging/safe-error.ts): its class, code
 * and stack frames, never its message, where database drivers quote the values they were given.
 */
export function errorForLog(value: unknown): unknown {
  return value instanceof Error ? safeErrorSummary(value) : value;
}

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    { level, base: { service: 'ofctx' }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, serializers: { err: errorForLog } },
    destination as pino.DestinationStream | undefined,
  );
}
