// The eligibility question the eligibility tests ask: Adaeze Okafor's Medicare Part A, from
// Maple Grove Nursing Home, traced by a fixed Coverage id.
import type { EligibilityInquiry } from '../../server/src/eligibility/x12-270.js';

export const INQUIRY_TRACE = '3f1c9a52-6a7e-4d8b-9c51-0f2a7d6e8b14';

export function sampleInquiry(overrides: Partial<EligibilityInquiry> = {}): EligibilityInquiry {
  return {
    senderId: 'OFCTXSUBMITTER',
    receiverId: 'CLEARINGHOUSE',
    controlNumber: 42,
    production: false,
    at: new Date('2026-03-04T05:06:07Z'),
    payer: { name: 'Medicare Part A', id: 'CMS' },
    provider: { name: 'Maple Grove Nursing Home', npi: '1234567893' },
    subscriber: { lastName: 'Okafor', firstName: 'Adaeze', memberId: '1EG4TE5MK73', birthDate: '1941-02-03', gender: 'female' },
    trace: INQUIRY_TRACE,
    serviceDate: '2026-03-04',
    ...overrides,
  };
}
