// Hostile requests to the FHIR searches by GET, with FHIR search syntax gone wrong.
// What is sent and what must come back: test/support/hostile-requests.ts.
import { describeHostileRequests } from '../../../../test/support/hostile-requests.js';

describeHostileRequests('FHIR searches by GET');
