// The one road into the database for every source of record. FHIR R4 (Bundle, NDJSON),
// HL7 v2 ADT and X12 271 each translate what they receive into a ChangeSet; one function,
// applyChangeSet (apply-change-set.ts), matches each change to the record it updates,
// versions the rows that really change and writes their events in the same transaction.
// Sources never write resource tables themselves.

/** The FHIR R4 resource types a system of record may write. */
export const INGESTIBLE_TYPES = ['Patient', 'Coverage', 'Observation', 'AllergyIntolerance', 'Condition', 'MedicationRequest', 'ServiceRequest', 'Consent'] as const;
export type IngestibleType = (typeof INGESTIBLE_TYPES)[number];
/**
 * The types applyChangeSet writes: the ingestible ones, and the records a source derives from
 * what it receives, which no system of record sends as FHIR (the FHIR importers accept only
 * INGESTIBLE_TYPES): CoverageEligibilityResponse, the benefits of an X12 271 loop;
 * DiagnosticReport, an HL7 v2 OBR with its results.
 */
export type RecordType = IngestibleType | 'CoverageEligibilityResponse' | 'DiagnosticReport';

/** A FHIR R4 resource as the system of record sent it (validated by the source). */
export interface IngestResource {
  resourceType: RecordType;
  id?: string;
  [element: string]: unknown;
}

export interface BusinessIdentifier {
  system: string;
  value: string;
}

export interface ResourceChange {
  /** References to other changes of the set may use their `urn:uuid:` fullUrl. */
  resource: IngestResource;
  /** The change's fullUrl (`urn:uuid:...`), which other changes of the set may reference. */
  fullUrl?: string;
  /**
   * The record this change updates: by ofctx id, or by business identifier (FHIR conditional
   * update, `PUT Patient?identifier=SYSTEM|VALUE`). No match given: always a new record.
   * `formerly`: the identifier an earlier release derived for the same record (an HL7 result's,
   * hl7/hl7-reading.ts groupedDerivedValue), matched only when `identifier` matches nothing; a
   * record found by it is indexed by both from then on, so records written then that name it by
   * the former value (a report's results, until the report is sent again) still find it.
   */
  match?: { id: string } | { identifier: BusinessIdentifier; formerly?: BusinessIdentifier };
  /** FHIR `ifNoneExist`: a record that already matches is left as it is. */
  createOnly?: boolean;
  /**
   * Optimistic concurrency (FHIR `ifMatch`): the versionId the writer last read. The change is
   * applied only if the matched record is still at that version; otherwise, or when nothing
   * matches, it is rejected with a `conflict` issue marked `versionConflict`, and the writer
   * reads the record again. Checked inside applyChangeSet's transaction, after the
   * organization's ingest lock is taken, so two writers cannot both pass with one version.
   */
  ifMatch?: number;
  /**
   * A Patient change only: this resident replaces the one found by that identifier (HL7
   * ADT^A40 merge). The prior resident turns inactive, its records move to this one, both carry
   * Patient.link (`replaced-by` / `replaces`) and one `resident.merged` is queued. Sending the
   * same merge again changes nothing.
   */
  replaces?: BusinessIdentifier;
  /**
   * The index, in this set, of the change just before this one, which this one is written
   * with: both go in one chunk, and when that change is rejected this one is rejected too
   * (`requires` in its issue) and nothing of it is written. A record derived from another
   * one's change (an X12 loop's CoverageEligibilityResponse from its Coverage's) then goes in
   * with it, or not at all.
   */
  requires?: number;
  /** Where the change came from, named in errors: "Bundle.entry[3]", "line 17", "PID-3", "2000C loop 2". */
  at: string;
}

export interface ChangeSet {
  orgId: string;
  facilityId: string;
  /**
   * transaction: all or nothing. batch: change by change: each succeeds or fails on its own
   * (applyChangeSet commits them in chunks, checking each change fully before writing it).
   */
  mode: 'transaction' | 'batch';
  /** Who wrote it, for the audit trail: an ingest credential's client_id, "ops-cli", "hl7v2", "seed". */
  actor: string;
  /** False only for seeding without --events: the rows are versioned but no event is queued. */
  emitEvents: boolean;
  changes: ResourceChange[];
}

/** An OperationOutcome issue: FHIR's issue code, what is wrong, and where (FHIRPath). */
export interface ChangeIssue {
  code: 'invalid' | 'structure' | 'required' | 'value' | 'not-found' | 'conflict' | 'forbidden' | 'too-costly' | 'exception' | 'not-supported';
  diagnostics: string;
  expression?: string[];
  /** The change's ifMatch was not the record's current version (FHIR: 412 Precondition Failed). */
  versionConflict?: true;
  /** The change was not applied because the change it `requires` was rejected. */
  requires?: true;
}

export type ChangeOutcome =
  | {
      at: string;
      outcome: 'created' | 'updated' | 'unchanged';
      resourceType: RecordType;
      id: string;
      versionId: number;
      lastUpdated: string;
      /** Event types queued by this change (see the event table in docs/feeds/fhir.md). */
      events: string[];
    }
  | {
      at: string;
      outcome: 'rejected';
      issue: ChangeIssue;
      /** Set in a refused `transaction`: this change was fine, another one was rejected. */
      refused?: true;
    };

export interface ChangeSetResult {
  outcomes: ChangeOutcome[];
  created: number;
  updated: number;
  unchanged: number;
  rejected: number;
  /** Events queued, all changes together. */
  events: number;
  /** False when a `transaction` set was refused as a whole (nothing was written). */
  committed?: boolean;
}
