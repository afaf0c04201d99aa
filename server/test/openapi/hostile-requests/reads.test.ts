// Hostile requests to the reads (GET) other than the FHIR searches, the console's pages among them.
// What is sent and what must come back: test/support/hostile-requests.ts.
import { describeHostileRequests } from '../../../../test/support/hostile-requests.js';

describeHostileRequests('reads');
