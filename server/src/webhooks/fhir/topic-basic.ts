// A SubscriptionTopic as an R4 Basic resource with the R5 cross-version extensions, as the
// Backport IG describes topics for R4 servers (R4 has no SubscriptionTopic resource).
import type { SubscriptionTopic } from './subscription-topics.js';

const XVER = 'http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic';

export function toR4TopicBasic(topic: SubscriptionTopic) {
  return {
    resourceType: 'Basic' as const,
    id: topic.id,
    meta: { profile: ['http://hl7.org/fhir/5.0/StructureDefinition/profile-SubscriptionTopic'] },
    extension: [
      { url: `${XVER}.url`, valueUri: topic.url },
      { url: `${XVER}.title`, valueString: topic.title },
      { url: `${XVER}.status`, valueCode: 'active' },
      { url: `${XVER}.description`, valueMarkdown: topic.description },
      {
        url: `${XVER}.eventTrigger`,
        extension: [
          { url: 'description', valueMarkdown: `ofctx event ${topic.eventType}` },
          { url: 'event', valueCodeableConcept: { coding: [{ system: 'https://ofctx.dev/fhir/CodeSystem/event-type', code: topic.eventType }] } },
          { url: 'resource', valueUri: `http://hl7.org/fhir/StructureDefinition/${topic.focus}` },
        ],
      },
      ...topic.filters.map((f) => ({
        url: `${XVER}.canFilterBy`,
        extension: [
          { url: 'description', valueMarkdown: f.description },
          { url: 'resource', valueUri: f.resource },
          { url: 'filterParameter', valueString: f.parameter },
        ],
      })),
      { url: `${XVER}.notificationShape`, extension: [{ url: 'resource', valueUri: topic.focus }] },
    ],
    code: { coding: [{ system: 'http://hl7.org/fhir/fhir-types', code: 'SubscriptionTopic' }] },
  };
}
