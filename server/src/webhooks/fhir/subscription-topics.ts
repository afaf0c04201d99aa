// The SubscriptionTopics of FHIR Subscriptions (R5 Backport IG on R4): one canonical per event
// type ofctx emits (db/event-types.ts), so a topic-based Subscription and a webhook hear
// the same events. Each names the resource its notifications focus on: the Patient (the
// resident the event is about) for everything but a new result, whose focus is the
// DiagnosticReport; and the `_criteria` filters it accepts (backport-subscription.ts).
import type { EventType } from '../../db/event-types.js';

/** Where ofctx's topic canonicals live (stable identifiers, not a page to fetch). */
export const TOPIC_BASE = 'https://ofctx.dev/fhir/SubscriptionTopic';

export type FocusType = 'Patient' | 'DiagnosticReport';

export interface SubscriptionTopic {
  /** The Basic resource's id in the R4 view, and the canonical's last segment. */
  id: string;
  url: string;
  eventType: EventType;
  title: string;
  description: string;
  focus: FocusType;
  /** The `_criteria` filters accepted: `Type?parameter` (backport-filter-criteria). */
  filters: ReadonlyArray<{ resource: 'Patient' | 'Observation' | 'DiagnosticReport'; parameter: string; description: string }>;
}

const PATIENT_FILTERS = [
  { resource: 'Patient', parameter: 'identifier', description: "The resident's identifier, `[system|]value` (an MRN, say)." },
  { resource: 'Patient', parameter: '_id', description: 'The resident, by its ofctx id.' },
] as const;

const RESULT_FILTERS = [
  ...PATIENT_FILTERS,
  { resource: 'DiagnosticReport', parameter: 'category', description: "The report's category, `[system|]code` (v2-0074, `LAB`)." },
  { resource: 'Observation', parameter: 'category', description: 'A category one of the report\'s results carries, `[system|]code` (`laboratory`).' },
] as const;

function topic(id: string, eventType: EventType, title: string, description: string, focus: FocusType = 'Patient'): SubscriptionTopic {
  return { id, url: `${TOPIC_BASE}/${id}`, eventType, title, description, focus, filters: focus === 'DiagnosticReport' ? RESULT_FILTERS : PATIENT_FILTERS };
}

export const SUBSCRIPTION_TOPICS: readonly SubscriptionTopic[] = [
  topic('resident-admitted', 'resident.admitted', 'Resident admitted', 'A resident is admitted to the facility (ofctx event resident.admitted).'),
  topic('resident-discharged', 'resident.discharged', 'Resident discharged', 'A resident is discharged (resident.discharged).'),
  topic('resident-transferred', 'resident.transferred', 'Resident transferred', 'A resident is transferred between facilities; the facility is the one the resident now belongs to (resident.transferred).'),
  topic('resident-merged', 'resident.merged', 'Resident records merged', 'Two records of one resident are merged; the focus is the surviving Patient (resident.merged).'),
  topic('coverage-updated', 'coverage.updated', 'Coverage changed', "A resident's payer coverage changes; the focus is the Patient, whose Coverages are read with coverage.read (coverage.updated)."),
  topic('condition-created', 'clinical.condition.created', 'New condition', 'A new diagnosis is recorded for a resident (clinical.condition.created).'),
  topic('order-created', 'clinical.order.created', 'New order', 'A new order (a medication, a service) is created for a resident (clinical.order.created).'),
  topic('result-created', 'clinical.result.created', 'New result', "A resident's results arrive as a new DiagnosticReport, or a report's status changes; the focus is the DiagnosticReport (clinical.result.created).", 'DiagnosticReport'),
];

export function topicByUrl(url: string): SubscriptionTopic | undefined {
  return SUBSCRIPTION_TOPICS.find((t) => t.url === url);
}

export function topicById(id: string): SubscriptionTopic | undefined {
  return SUBSCRIPTION_TOPICS.find((t) => t.id === id);
}

export function topicOfEvent(eventType: string): SubscriptionTopic | undefined {
  return SUBSCRIPTION_TOPICS.find((t) => t.eventType === eventType);
}
