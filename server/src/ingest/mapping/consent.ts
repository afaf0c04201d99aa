// FHIR R4 Consent -> consents row: a resident's privacy consent as the system of record
// holds it. What decides visibility (tenancy/record-visibility.ts): status, scope
// (patient-privacy), provision.type (deny | permit), provision.purpose (HL7 v3 PurposeOfUse
// codes; a deny without one denies every purpose but TREAT) and provision.period. A Consent
// is matched to the earlier one of its identifier (matchOwnIdentifier), so a later Consent
// of the same identifier that is inactive or permit replaces, and so lifts, the deny.
import { fullDate, instant, issue, mapped, object, oneOf, text, type ResourceMapping } from './resource-mapping.js';

const STATUSES = ['draft', 'proposed', 'active', 'rejected', 'inactive', 'entered-in-error'] as const;
const DECISIONS = ['deny', 'permit'] as const;
const PURPOSE_SYSTEM = 'http://terminology.hl7.org/CodeSystem/v3-ActReason';

/** A period bound: a date (the start of that UTC day; an end's day is included) or a date-time. */
function bound(value: unknown, where: string, end: boolean): string | null {
  if (value === undefined) return null;
  if (typeof value === 'string' && value.length === 10) {
    const day = Date.parse(`${fullDate(value, where)}T00:00:00Z`);
    return new Date(end ? day + 86_400_000 : day).toISOString();
  }
  return instant(value, where);
}

function scopeCode(resource: Record<string, unknown>): string {
  const codings = object(resource.scope)?.coding;
  const code = Array.isArray(codings) ? codings.map(object).map((c) => text(c?.code)).find(Boolean) : undefined;
  if (!code) issue('required', 'Consent.scope needs a coding (patient-privacy for access decisions)', 'Consent.scope');
  return code.slice(0, 64);
}

function purposes(provision: Record<string, unknown> | undefined): string {
  const list = provision?.purpose;
  if (list === undefined) return '*';
  if (!Array.isArray(list)) issue('structure', 'Consent.provision.purpose must be an array of Codings', 'Consent.provision.purpose');
  const codes = list.map((entry, index) => {
    const coding = object(entry);
    const code = text(coding?.code);
    const where = `Consent.provision.purpose[${index}]`;
    if (!code || !/^[A-Z]{2,16}$/.test(code)) issue('value', `${where} needs an HL7 v3 PurposeOfUse code such as HPAYMT`, where);
    if (coding!.system !== undefined && coding!.system !== PURPOSE_SYSTEM) issue('value', `${where}.system must be ${PURPOSE_SYSTEM}`, `${where}.system`);
    return code;
  });
  return codes.length === 0 ? '*' : ` ${[...new Set(codes)].sort().join(' ')} `;
}

export const consentMapping: ResourceMapping = {
  type: 'Consent',
  table: 'consents',
  residentElement: 'patient',
  matchOwnIdentifier: true,
  toColumns: (resource) =>
    mapped(() => {
      const provision = object(resource.provision);
      const period = object(provision?.period);
      const start = bound(period?.start, 'Consent.provision.period.start', false);
      const end = bound(period?.end, 'Consent.provision.period.end', true);
      if (start !== null && end !== null && end <= start) issue('value', 'Consent.provision.period.end must be after its start', 'Consent.provision.period');
      return {
        status: oneOf(resource.status, STATUSES, 'Consent.status'),
        scope_code: scopeCode(resource),
        decision: provision?.type === undefined ? null : oneOf(provision.type, DECISIONS, 'Consent.provision.type'),
        purposes: purposes(provision),
        period_start: start,
        period_end: end,
      };
    }),
  // Partners receive no event of a consent; what it changes, they see in the records' sync.
  events: () => [],
};
