// A message refused before it was read whole: a FHIR Bundle or X12 interchange over
// INGEST_MAX_BUNDLE_BYTES, answered 413 from its Content-Length or once the limit was passed.
// It is stored refused, as every message a sender sent and was answered is, with its source,
// its size and the answer, but without content: only its size was read (the sender's copy is
// the message; it cannot be reprocessed from the store, the operator asks for it split).
import type { ApiError } from '../errors/api-error.js';
import type { MessageStore } from './message-store.js';
import type { MessageOutcome, ReceivedMessage } from './message-types.js';

/** Stores a message answered `error` unread (content null, `sizeBytes` as known); never throws: the sender's answer must not depend on it. */
export async function storeUnread(
  store: MessageStore,
  received: Omit<ReceivedMessage, 'content' | 'controlId'> & { sizeBytes: number },
  error: ApiError,
  body: unknown,
  onError: (error: Error) => void,
): Promise<void> {
  const outcome: MessageOutcome = { status: 'refused', answer: { code: String(error.status), errors: [{ severity: 'error', code: error.code, text: error.message }], body }, records: [] };
  try {
    await store.store({ ...received, controlId: null, content: null }, outcome);
  } catch (failure) {
    onError(failure as Error);
  }
}
