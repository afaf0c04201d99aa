// A credential's access policy (issue 23): why it reads (an HL7 v3 PurposeOfUse code), which
// payer's members it may see (none given: every resident of its facilities), and whether it
// may see records carrying a restricted security label. Set by operators (`ops client
// create|update`), never by partners; tenancy/record-visibility.ts turns it into the one SQL
// restriction every read path applies.

/** HL7 v3 PurposeOfUse codes a credential may be issued for (v3-ActReason, PurposeOfUse). */
export const PURPOSES_OF_USE = [
  'TREAT', 'ETREAT', 'CAREMGT', 'POPHLTH', 'HPAYMT', 'CLMATTCH', 'COVAUTH', 'COVERAGE', 'ELIGDTRM', 'ELIGVER',
  'HOPERAT', 'HMARKT', 'HQUALIMP', 'HRESCH', 'PUBHLTH', 'HSYSADMIN', 'PATRQT', 'FAMRQT', 'PWATRNY', 'SYSDEV',
  'TRAIN', 'HLEGAL', 'HCOMPL', 'HDIRECT', 'HACCRED', 'HOUTCOMS', 'HPRGRP', 'CLINTRCH', 'BIORCH', 'DSRCH',
] as const;
export type PurposeOfUse = (typeof PURPOSES_OF_USE)[number];

/** Today's partners: operations, every resident, no restricted records. */
export const DEFAULT_PURPOSE: PurposeOfUse = 'HOPERAT';

export interface AccessPolicy {
  purpose: PurposeOfUse;
  /** Lower-cased payer values (a Coverage's payor identifier value or display); null: no payer restriction. */
  payers: readonly string[] | null;
  /** May see records carrying a restricted security label. */
  sensitive: boolean;
}

export const DEFAULT_POLICY: AccessPolicy = { purpose: DEFAULT_PURPOSE, payers: null, sensitive: false };

export function isPurposeOfUse(value: string): value is PurposeOfUse {
  return (PURPOSES_OF_USE as readonly string[]).includes(value);
}

/** A payer value as compared: trimmed and lower-cased (payer matching is case-insensitive). */
export function normalisedPayer(value: string): string {
  return value.trim().toLowerCase();
}

/** The policy of a `clients` row (its purpose, payers and sensitive columns). */
export function policyOfRow(row: { purpose?: unknown; payers?: unknown; sensitive?: unknown }): AccessPolicy {
  const purpose = typeof row.purpose === 'string' && isPurposeOfUse(row.purpose) ? row.purpose : DEFAULT_PURPOSE;
  const payers = typeof row.payers === 'string' ? (JSON.parse(row.payers) as string[]) : null;
  return { purpose, payers: payers && payers.length > 0 ? payers : null, sensitive: Number(row.sensitive ?? 0) === 1 };
}

/** The `clients` columns holding a policy. */
export function policyColumns(policy: AccessPolicy): { purpose: string; payers: string | null; sensitive: number } {
  return {
    purpose: policy.purpose,
    payers: policy.payers && policy.payers.length > 0 ? JSON.stringify([...new Set(policy.payers.map(normalisedPayer))].sort()) : null,
    sensitive: policy.sensitive ? 1 : 0,
  };
}
