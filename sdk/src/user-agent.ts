// The User-Agent the client sends, so the API's logs tell SDK versions and runtimes apart.
import { SDK_VERSION } from './version.js';

/**
 * `ofctx-sdk-node/<version> (node <process.version>)`, plus the caller's suffix. Undefined
 * outside Node (browsers do not let a page set User-Agent).
 */
export function userAgentHeader(suffix: string | undefined): string | undefined {
  const nodeVersion = (globalThis as { process?: { version?: unknown; versions?: { node?: unknown } } }).process;
  if (typeof nodeVersion?.versions?.node !== 'string' || typeof nodeVersion.version !== 'string') return undefined;
  const base = `ofctx-sdk-node/${SDK_VERSION} (node ${nodeVersion.version})`;
  return suffix ? `${base} ${suffix}` : base;
}
