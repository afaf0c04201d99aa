// Where the API is and who we are, from the environment: credentials never go in code or
// on the command line (where `ps` and shell history would show them).
export interface PartnerSyncConfig {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  orgId: string;
  facilityId: string;
}

export const DEFAULT_BASE_URL = 'http://localhost:8080';

/** Thrown when required variables are missing; main.ts prints it with the usage. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function configFromEnv(env: NodeJS.ProcessEnv): PartnerSyncConfig {
  const required = ['OFCTX_CLIENT_ID', 'OFCTX_CLIENT_SECRET', 'OFCTX_ORG_ID', 'OFCTX_FACILITY_ID'] as const;
  const missing = required.filter((name) => !env[name]);
  if (missing.length > 0) throw new ConfigError(`missing environment variable(s): ${missing.join(', ')}`);
  return {
    baseUrl: env.OFCTX_BASE_URL || DEFAULT_BASE_URL,
    clientId: env.OFCTX_CLIENT_ID!,
    clientSecret: env.OFCTX_CLIENT_SECRET!,
    orgId: env.OFCTX_ORG_ID!,
    facilityId: env.OFCTX_FACILITY_ID!,
  };
}
