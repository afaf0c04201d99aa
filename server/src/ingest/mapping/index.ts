// Every type applyChangeSet writes and its mapping.
import type { RecordType } from '../change-set.js';
import type { ResourceMapping } from './resource-mapping.js';
import { patientMapping } from './patient.js';
import { coverageMapping } from './coverage.js';
import { observationMapping } from './observation.js';
import { allergyIntoleranceMapping } from './allergy-intolerance.js';
import { conditionMapping } from './condition.js';
import { medicationRequestMapping } from './medication-request.js';
import { serviceRequestMapping } from './service-request.js';
import { consentMapping } from './consent.js';
import { coverageEligibilityResponseMapping } from './coverage-eligibility-response.js';
import { diagnosticReportMapping } from './diagnostic-report.js';

export const MAPPINGS: Record<RecordType, ResourceMapping> = {
  Patient: patientMapping,
  Coverage: coverageMapping,
  Observation: observationMapping,
  AllergyIntolerance: allergyIntoleranceMapping,
  Condition: conditionMapping,
  MedicationRequest: medicationRequestMapping,
  ServiceRequest: serviceRequestMapping,
  Consent: consentMapping,
  CoverageEligibilityResponse: coverageEligibilityResponseMapping,
  DiagnosticReport: diagnosticReportMapping,
};
