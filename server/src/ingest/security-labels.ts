// HL7 security labels (meta.security) of an ingested resource, kept per record: the codings as
// sent (security_labels, JSON) and whether one of them restricts the record to credentials
// cleared for sensitive data (restricted). Restricting: v3 Confidentiality R (restricted) and
// V (very restricted), and the v3 ActCode sensitivity codes (information sensitivity policy:
// ETH substance abuse, PSY psychiatry, SUD substance use disorder, HIV, SDV sexual and domestic
// violence, ...). Other labels (N, M, purpose or handling codes) are kept and restrict nothing.
import { bounded, issue, object, text } from './mapping/resource-mapping.js';

const CONFIDENTIALITY = ['http://terminology.hl7.org/CodeSystem/v3-Confidentiality', 'http://hl7.org/fhir/v3/Confidentiality'];
const ACT_CODE = ['http://terminology.hl7.org/CodeSystem/v3-ActCode', 'http://hl7.org/fhir/v3/ActCode'];

export const RESTRICTED_CONFIDENTIALITY = ['R', 'V'] as const;
/** v3 ActCode _InformationSensitivityPolicy codes (and their common sub-codes). */
export const SENSITIVITY_CODES = [
  'ETH', 'PSY', 'PSYTHPN', 'SUD', 'HIV', 'SDV', 'SEX', 'STD', 'GDIS', 'BH', 'TBOO', 'SICKLE', 'DEMO', 'DOB', 'GENDER', 'LIVARG', 'MARST',
  'RACE', 'REL', 'COMPT', 'HRCOMPT', 'RESCOMPT', 'RMGTCOMPT', 'ACTPOL', 'INFOSENS', 'SOC', 'SPI', 'ADOL', 'CEL', 'DIA', 'DRGIS', 'EMP',
  'PDS', 'PHY', 'PRS',
] as const;

export interface SecurityColumns {
  security_labels: string | null;
  restricted: number;
}

/** The security columns of a resource, from its meta.security. */
export function securityColumns(resource: Record<string, unknown>): SecurityColumns {
  const labels = object(resource.meta)?.security;
  if (labels === undefined) return { security_labels: null, restricted: 0 };
  const where = `${resource.resourceType as string}.meta.security`;
  if (!Array.isArray(labels)) issue('structure', `${where} must be an array of Codings`, where);
  let restricted = false;
  const kept = labels.map((entry, index) => {
    const coding = object(entry);
    const system = text(coding?.system);
    const code = text(coding?.code);
    if (!system || !code) issue('required', `${where}[${index}] needs a system and a code`, `${where}[${index}]`);
    if (CONFIDENTIALITY.includes(system) && (RESTRICTED_CONFIDENTIALITY as readonly string[]).includes(code)) restricted = true;
    if (ACT_CODE.includes(system) && (SENSITIVITY_CODES as readonly string[]).includes(code)) restricted = true;
    const display = text(coding!.display);
    return { system: bounded(system, 200, `${where}[${index}].system`), code: bounded(code, 64, `${where}[${index}].code`), ...(display ? { display: bounded(display, 200, `${where}[${index}].display`) } : {}) };
  });
  return { security_labels: kept.length > 0 ? JSON.stringify(kept) : null, restricted: restricted ? 1 : 0 };
}
