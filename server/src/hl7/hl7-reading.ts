// What every segment mapper of one message shares: who sent it (local codes and identifiers
// without an authority are namespaced by it), the sender's zone offset (MSH-7) for times
// without one, and the warnings collected for what could not be kept. A segment whose content
// cannot be kept is dropped and named in an ERR of severity W: the ACK stays AA, as interface
// engines expect (notes/hl7v2.md), and the rest of the record is kept.
import type { Hl7Segment } from '@medplum/core';
import { createHash } from 'node:crypto';
import type { BusinessIdentifier } from '../ingest/change-set.js';
import { Hl7Failure } from './hl7-failure.js';

export class Hl7Reading {
  readonly warnings: Hl7Failure[] = [];
  /** Segments of each name seen so far, for the ERR location's sequence. */
  private readonly seen = new Map<Hl7Segment, number>();
  /** The digests of this message's record groups (an order's results), by what they digest: groupedDerivedValue. */
  readonly groupDigests = new Map<string, string>();

  constructor(
    /** MSH-3.1, or '-' when empty. */
    readonly sendingApplication: string,
    /** MSH-4.1, possibly ''. */
    readonly sendingFacility: string,
    /** MSH-7's zone offset (`+0215`), or ''. */
    readonly offset: string,
    readonly segments: readonly Hl7Segment[],
  ) {}

  /** 1 for the first segment of its name in the message. */
  sequenceOf(segment: Hl7Segment): number {
    let cached = this.seen.get(segment);
    if (cached === undefined) {
      cached = 0;
      for (const s of this.segments) {
        if (s.name === segment.name) cached++;
        if (s === segment) break;
      }
      this.seen.set(segment, cached);
    }
    return cached;
  }

  /** Runs a segment's mapper; a failure becomes a warning (the segment is dropped). */
  keep<T>(segment: Hl7Segment, map: () => T | undefined): T | undefined {
    try {
      return map();
    } catch (error) {
      if (!(error instanceof Hl7Failure)) throw error;
      this.warn(new Hl7Failure('AE', error.code, { ...error.location, segment: segment.name, sequence: this.sequenceOf(segment) } as Hl7Failure['location'], `${segment.name} #${this.sequenceOf(segment)} not kept: ${error.message}`));
      return undefined;
    }
  }

  /**
   * Reads a field that is not a key (a birth date, a visit time, an issued time): a malformed
   * value is left out of the record, named in a warning, and the rest is kept.
   */
  leaveOut<T>(segment: Hl7Segment, read: () => T | undefined): T | undefined {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof Hl7Failure)) throw error;
      const sequence = this.sequenceOf(segment);
      this.warn(new Hl7Failure('AE', error.code, { ...error.location, segment: segment.name, sequence } as Hl7Failure['location'], `${segment.name} #${sequence}: ${error.message}; left out, the rest is kept`));
      return undefined;
    }
  }

  warn(failure: Hl7Failure): void {
    this.warnings.push(failure);
  }

  /** The namespace of this sender's local identifiers and list items: `urn:ofctx:hl7v2:<kind>:<MSH-3>`. */
  systemOf(kind: string, ...more: string[]): string {
    return [`urn:ofctx:hl7v2:${kind}`, encodeURIComponent(this.sendingApplication), ...more.map(encodeURIComponent)].join(':');
  }
}

/**
 * A stable identifier value for a list item that has none of its own (an AL1 without IAM-7,
 * a DG1 without DG1-20): the same resident, the same code, the same value, whatever the
 * message; hashed, so it stays short and carries no patient data.
 */
export function derivedValue(resident: BusinessIdentifier, ...parts: string[]): string {
  return digestOf(derivedText(resident, parts));
}

/** What `derivedValue` digests. */
const derivedText = (resident: BusinessIdentifier, parts: string[]) => JSON.stringify([resident.system, resident.value, ...parts]);
const digestOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 40);

/**
 * A stable identifier value for one of a group's records (an OBX of one order): 16 hex of the
 * group's digest, then 24 of the record's own (`derivedValue` of the group's and its parts).
 * The group's records then sit side by side in the identifier indexes, which are ordered by
 * value: with a digest each, an ORU^R01's ten results dirtied ten scattered pages of each (26
 * of the 121 pages an ORU^R01's commit wrote on SQLite, 2026-11-29), and once a facility's
 * years of results outgrow memory, each would be a page read from disk. `formerly` is the value
 * releases before 2026-11-29 derived for the same record (the whole `derivedValue`): records
 * written then are still found by it (ingest/change-set.ts, `match.formerly`), in the
 * organizations that held HL7 results then (migration 048) and only there, since looking those
 * scattered values up costs the reads the grouping saves.
 */
export function groupedDerivedValue(resident: BusinessIdentifier, group: string[], own: string[], groupDigests: Map<string, string>): { value: string; formerly: string } {
  const formerly = derivedValue(resident, ...group, ...own);
  // The group's part is the same for each of its records: `groupDigests` (one message's) keeps it.
  const groupText = derivedText(resident, group);
  let prefix = groupDigests.get(groupText);
  if (prefix === undefined) {
    prefix = digestOf(groupText).slice(0, 16);
    groupDigests.set(groupText, prefix);
  }
  return { value: prefix + formerly.slice(0, 24), formerly };
}
