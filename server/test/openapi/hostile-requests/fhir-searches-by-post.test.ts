// Hostile requests to the FHIR searches by POST (_search), with FHIR search syntax gone wrong in their forms.
// What is sent and what must come back: test/support/hostile-requests.ts.
import { describeHostileRequests } from '../../../../test/support/hostile-requests.js';

describeHostileRequests('FHIR searches by POST');
