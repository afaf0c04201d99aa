// Structured JSON logs (pino). Anything that could carry a secret, a token or patient data
// is redacted by path, and request logs carry only the operation, never URLs or bodies.
import { pino, type Logger } from 'pino';

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

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    { level, base: { service: 'ofctx' }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } },
    destination as pino.DestinationStream | undefined,
  );
}
