// Who registers, and where deliveries should go, from the environment.
import type { EventType } from '@ofctx/sdk';

export interface RegisterWebhookConfig {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  orgId: string;
  callbackUrl: string;
  eventTypes: EventType[];
  description: string;
}

export const DEFAULT_BASE_URL = 'http://localhost:8080';
/** Where examples/webhook-receiver listens by default. */
export const DEFAULT_CALLBACK_URL = 'http://localhost:3000/hooks/ofctx';
export const DEFAULT_EVENT_TYPES: EventType[] = ['resident.admitted', 'resident.discharged', 'resident.transferred', 'coverage.updated'];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function configFromEnv(env: NodeJS.ProcessEnv): RegisterWebhookConfig {
  const required = ['OFCTX_CLIENT_ID', 'OFCTX_CLIENT_SECRET', 'OFCTX_ORG_ID'] as const;
  const missing = required.filter((name) => !env[name]);
  if (missing.length > 0) throw new ConfigError(`missing environment variable(s): ${missing.join(', ')}`);
  return {
    baseUrl: env.OFCTX_BASE_URL || DEFAULT_BASE_URL,
    clientId: env.OFCTX_CLIENT_ID!,
    clientSecret: env.OFCTX_CLIENT_SECRET!,
    orgId: env.OFCTX_ORG_ID!,
    callbackUrl: env.WEBHOOK_CALLBACK_URL || DEFAULT_CALLBACK_URL,
    // The API checks the names against its list; a typo comes back as a ValidationError naming it.
    eventTypes: env.WEBHOOK_EVENT_TYPES ? (env.WEBHOOK_EVENT_TYPES.split(',').map((t) => t.trim()).filter(Boolean) as EventType[]) : DEFAULT_EVENT_TYPES,
    description: env.WEBHOOK_DESCRIPTION || 'ofctx example webhook-receiver',
  };
}
