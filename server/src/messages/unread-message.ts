// A message refused before it was read whole: a FHIR Bundle or X12 interchange over
// INGEST_MAX_BUNDLE_BYTES, answered 413 from its Content-Length or once the limit was passed.
// It is stored refused, as every message a sender sent and was answered is, with its source,
// its size and the answer, but without content: only its size was read (the sender's copy is
// the message; it cannot be reprocessed from the store, the operator asks for it split).
import type { IncomingMessage } from 'node:http';
import type { ApiError } from '../errors/api-error.js';
import { readBoundedBody } from '../http/bounded-body.js';
import type { MessageStore } from './message-store.js';
import type { MessageOutcome, ReceivedMessage } from './message-types.js';

export interface UnreadMessageOptions {
  store: MessageStore;
  /** The message as it would be stored (its size and the absent content are added here). */
  received: Omit<ReceivedMessage, 'content' | 'controlId' | 'sizeBytes'>;
  /** The road's 413, naming what to send instead. */
  tooLarge: () => ApiError;
  /** The answer's body as the road renders the error (an OperationOutcome, the envelope). */
  answerBody: (error: ApiError) => unknown;
  /** A store that fails is logged: the sender's answer must not depend on it. */
  onError: (error: Error) => void;
}

/** The body as text, up to `maxBytes`; larger, the 413 is thrown once the message is stored refused, unread. */
export async function readBodyOrStoreUnread(req: IncomingMessage, maxBytes: number, options: UnreadMessageOptions): Promise<string> {
  let bytesKnown = 0;
  // Made only for a body that is refused (an error captures its stack).
  let refusal: ApiError | undefined;
  try {
    return await readBoundedBody(req, maxBytes, (bytes) => {
      bytesKnown = bytes;
      refusal = options.tooLarge();
      return refusal;
    });
  } catch (error) {
    if (refusal !== undefined && error === refusal) {
      const outcome: MessageOutcome = { status: 'refused', answer: { code: String(refusal.status), errors: [{ severity: 'error', code: refusal.code, text: refusal.message }], body: options.answerBody(refusal) }, records: [] };
      await options.store.store({ ...options.received, controlId: null, content: null, sizeBytes: bytesKnown }, outcome).catch((failure: Error) => options.onError(failure));
    }
    throw error;
  }
}
