// Which MLLP connections the listener takes, decided on the TCP connection before a byte is
// read, so that no one sender (or crowd of senders) can hold every connection:
//  - the allow-list (MLLP_ALLOWED_SOURCES), when one is set;
//  - at most MLLP_MAX_CONNECTIONS_PER_SOURCE open connections per source address, so 100 idle
//    connections from one address take that many and no more;
//  - at most MLLP_MAX_CONNECTIONS in all, of which MLLP_RESERVED_CONNECTIONS are kept for the
//    sources in MLLP_RESERVED_SOURCES (the interface engines the operator knows): other
//    sources together never hold more than the rest, so a flood from many addresses still
//    leaves the known engines their share.
import type { BlockList } from 'node:net';
import { listed } from '../config/address-list.js';

export type AdmissionRefusal = 'source_not_allowed' | 'source_limit' | 'capacity';

export interface AdmissionLimits {
  /** Undefined: any source. */
  allowed: BlockList | undefined;
  /** Undefined: no reserve. */
  reserved: BlockList | undefined;
  maxConnections: number;
  maxPerSource: number;
  reservedConnections: number;
}

export type Admission = { admitted: true; source: string; release(): void } | { admitted: false; source: string; reason: AdmissionRefusal };

/** The source as one address: an IPv4 client of a dual-stack socket (::ffff:10.1.2.3) is 10.1.2.3. */
export function sourceAddress(remote: string | undefined): string {
  if (!remote) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(remote);
  return mapped ? mapped[1]! : remote.toLowerCase();
}

export class MllpAdmission {
  private readonly perSource = new Map<string, number>();
  private total = 0;
  /** Connections held by sources outside MLLP_RESERVED_SOURCES. */
  private unreserved = 0;

  constructor(private readonly limits: AdmissionLimits) {}

  get open(): number {
    return this.total;
  }

  /** The connections open now, by source address (the operators' console shows them per feed). */
  openBySource(): Array<{ source: string; open: number }> {
    return [...this.perSource].filter(([, open]) => open > 0).map(([source, open]) => ({ source, open }));
  }

  admit(remote: string | undefined): Admission {
    const source = sourceAddress(remote);
    const { allowed, reserved, maxConnections, maxPerSource, reservedConnections } = this.limits;
    if (allowed && !listed(allowed, source)) return { admitted: false, source, reason: 'source_not_allowed' };
    const held = this.perSource.get(source) ?? 0;
    if (held >= maxPerSource) return { admitted: false, source, reason: 'source_limit' };
    if (this.total >= maxConnections) return { admitted: false, source, reason: 'capacity' };
    const isReserved = reserved !== undefined && listed(reserved, source);
    if (!isReserved && this.unreserved >= maxConnections - reservedConnections) return { admitted: false, source, reason: 'capacity' };
    this.perSource.set(source, held + 1);
    this.total++;
    if (!isReserved) this.unreserved++;
    let released = false;
    return {
      admitted: true,
      source,
      release: () => {
        if (released) return;
        released = true;
        const left = (this.perSource.get(source) ?? 1) - 1;
        if (left === 0) this.perSource.delete(source);
        else this.perSource.set(source, left);
        this.total--;
        if (!isReserved) this.unreserved--;
      },
    };
  }
}
