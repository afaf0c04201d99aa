// Hostile requests to the writes: tokens, ingestion, webhooks, exports, the console's forms; deletions last.
// What is sent and what must come back: test/support/hostile-requests.ts.
import { describeHostileRequests } from '../../../../test/support/hostile-requests.js';

describeHostileRequests('writes');
