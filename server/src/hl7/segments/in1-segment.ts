// IN1 (with the IN2 that follows it) -> FHIR R4 Coverage of the resident, after the v2-to-FHIR
// IG's IN1 map: payor IN1-4 (insurance company name) with IN1-3 (company id) as its identifier,
// subscriberId IN1-36 (policy number; else IN1-49 insured's id, IN2-6 Medicare, IN2-8
// Medicaid), period IN1-12..IN1-13 (an expiration date in the past: `cancelled`), order IN1-22
// (coordination of benefits priority) else IN1-1. Its identifier, the sender's plan (IN1-2,
// else IN1-3) and the policy number, is the same in every message: the same IN1 re-sent
// changes nothing, and a 271 finds the Coverage by member id (NM109 = the policy number).
import type { Hl7Segment } from '@medplum/core';
import type { BusinessIdentifier, IngestResource } from '../../ingest/change-set.js';
import { fieldError } from '../hl7-failure.js';
import { component, hl7DateTime } from '../hl7-fields.js';
import type { Hl7Reading } from '../hl7-reading.js';

export interface MappedRecord {
  resource: IngestResource;
  /** The record's stable identifier, which it is matched on. */
  identifier: BusinessIdentifier;
}

function date(segment: Hl7Segment, field: number): string | undefined {
  const value = component(segment, field, 1);
  if (!value) return undefined;
  const parsed = hl7DateTime(value, segment.name, field);
  if (parsed.length < 10) throw fieldError('data_type_error', segment.name, field, `${segment.name}-${field} must name a day; got ${JSON.stringify(value)}`);
  return parsed.slice(0, 10);
}

export function coverageOfIn1(in1: Hl7Segment, in2: Hl7Segment | undefined, resident: string, reading: Hl7Reading, today: string): MappedRecord {
  const policy = component(in1, 36, 1) || component(in1, 49, 1) || (in2 ? component(in2, 6, 1) || component(in2, 8, 1) : '');
  if (!policy) throw fieldError('required_field_missing', 'IN1', 36, 'IN1-36 (policy number) is required to keep a Coverage (or IN1-49, IN2-6, IN2-8)');
  if (policy.length > 64) throw fieldError('data_type_error', 'IN1', 36, 'IN1-36 (policy number) is longer than 64 characters');
  const companyName = component(in1, 4, 1);
  const companyId = component(in1, 3, 1);
  const payor = companyName || companyId;
  if (!payor) throw fieldError('required_field_missing', 'IN1', 4, 'IN1-4 (insurance company name) or IN1-3 (company id) is required');
  const start = date(in1, 12);
  if (!start) throw fieldError('required_field_missing', 'IN1', 12, 'IN1-12 (plan effective date) is required to keep a Coverage');
  const end = date(in1, 13);
  const priority = Number(component(in1, 22, 1) || component(in1, 1, 1) || '1');
  const plan = component(in1, 2, 1) || companyId || payor;
  const identifier = { system: reading.systemOf('coverage', plan), value: policy };
  return {
    identifier,
    resource: {
      resourceType: 'Coverage',
      identifier: [identifier],
      status: end && end < today ? 'cancelled' : 'active',
      beneficiary: { reference: resident },
      subscriberId: policy,
      payor: [{ ...(companyId ? { identifier: { value: companyId } } : {}), display: payor.slice(0, 200) }],
      period: { start, ...(end ? { end } : {}) },
      order: Number.isInteger(priority) && priority > 0 ? priority : 1,
    },
  };
}
