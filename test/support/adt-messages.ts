// HL7 v2.5.1 ADT messages for tests and benchmarks, laid out like the fixtures in
// server/test/hl7/fixtures (MSH, EVN, PID, PV1; segments ended by CR).
export const MRN_OID = '2.16.840.1.113883.19.5';
export const MRN_SYSTEM = `urn:oid:${MRN_OID}`;

export interface AdtOptions {
  event: string;
  controlId: string;
  mrn: string;
  /** The HL7 code of the facility (PV1-3.4). */
  facility: string;
  family?: string;
  given?: string;
  birth?: string;
  sex?: string;
  structure?: string;
}

export function adtMessage(o: AdtOptions): string {
  const structure = o.structure ?? (['A02', 'A03', 'A12'].includes(o.event) ? `ADT_${o.event}` : 'ADT_A01');
  return [
    `MSH|^~\\&|TESTADT|${o.facility}|OFCTX|OFCTX|20260115083000||ADT^${o.event}^${structure}|${o.controlId}|P|2.5.1`,
    `EVN|${o.event}|20260115083000`,
    `PID|1||${o.mrn}^^^MAPLEMRN&${MRN_OID}&ISO^MR||${o.family ?? 'Okafor'}^${o.given ?? 'Adaeze'}^^^^^L||${o.birth ?? '19410317'}|${o.sex ?? 'F'}`,
    `PV1|1|I|2W^201^A^${o.facility}`,
  ].join('\r') + '\r';
}

/** Any HL7 v2.5.1 message: an MSH for `type` (`ADT^A01^ADT_A01`), then the given segments, ended by CR. */
export function hl7Message(type: string, controlId: string, segments: string[], from: { application?: string; facility?: string } = {}): string {
  return [`MSH|^~\\&|${from.application ?? 'TESTADT'}|${from.facility ?? 'OFCTX'}|OFCTX|OFCTX|20260115083000+0000||${type}|${controlId}|P|2.5.1`, ...segments].join('\r') + '\r';
}

/** A segment from its fields by number (HL7's numbering: `{ 3: 'CMS', 36: 'MBI' }`). */
export function segment(name: string, fields: Record<number, string>): string {
  const last = Math.max(...Object.keys(fields).map(Number));
  return [name, ...Array.from({ length: last }, (_, i) => fields[i + 1] ?? '')].join('|');
}

/** PID of the resident with this MRN, in the layout of adtMessage's. */
export const pidOf = (mrn: string, family = 'Okafor') => `PID|1||${mrn}^^^MAPLEMRN&${MRN_OID}&ISO^MR||${family}^Adaeze^^^^^L||19410317|F`;
