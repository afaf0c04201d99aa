// Keep-alive connections for deliveries, one pool (an http.Agent) per subscription, callback
// origin and vetted address, whose every socket is connected to that address. A connection
// is reused only by an attempt whose own vetting (ssrf-guard.ts, at every attempt) approved
// that same address: the guard's contract is "connect to the address just vetted", and a
// socket already open to it is such a connection. When the vetting answers another address
// (DNS changed), the attempt takes another pool and new connections; the old pool is closed
// once idle. Saves a TCP (and TLS) handshake per attempt, on both sides.
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './ssrf-guard.js';

/** Idle connections close after this long (below the 5 s keep-alive of common servers, Node's included). */
export const IDLE_CONNECTION_MS = 4000;

/** Every name resolves to the vetted address: the URL keeps its host (Host header, TLS name). */
export function pinnedLookup(vetted: ResolvedAddress): LookupFunction {
  // net.connect asks for every address (`all`) when it may race IPv4 and IPv6.
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: vetted.address, family: vetted.family }]);
    else callback(null, vetted.address, vetted.family);
  }) as unknown as LookupFunction;
}

interface Pool {
  agent: HttpAgent;
  lastUsed: number;
}

export class PinnedConnections {
  private readonly pools = new Map<string, Pool>();
  private lastSweep = 0;

  constructor(private readonly idleMs = IDLE_CONNECTION_MS) {}

  /** The pool for an attempt of `subscriptionId` to `url`, whose host was vetted as `vetted` just now. */
  agentFor(subscriptionId: string, url: URL, vetted: ResolvedAddress): HttpAgent {
    const now = Date.now();
    if (now - this.lastSweep > this.idleMs) this.sweep(now);
    const key = `${subscriptionId} ${url.protocol}//${url.host} ${vetted.address}`;
    let pool = this.pools.get(key);
    if (!pool) {
      const options = { keepAlive: true, timeout: this.idleMs, lookup: pinnedLookup(vetted), scheduling: 'lifo' as const };
      pool = { agent: url.protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options), lastUsed: now };
      this.pools.set(key, pool);
    }
    pool.lastUsed = now;
    return pool.agent;
  }

  /** Closes pools unused for a while with no request under way (an address no longer vetted, a quiet subscription). */
  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [key, pool] of this.pools) {
      if (now - pool.lastUsed > this.idleMs && Object.keys(pool.agent.sockets).length === 0) {
        pool.agent.destroy();
        this.pools.delete(key);
      }
    }
  }

  get size(): number {
    return this.pools.size;
  }

  /** Closes every connection (the worker stops). */
  close(): void {
    for (const pool of this.pools.values()) pool.agent.destroy();
    this.pools.clear();
  }
}
