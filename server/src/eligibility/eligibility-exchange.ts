// One eligibility question, asked and answered: the 270 built for the Coverage (x12-270.ts,
// read back before it leaves), wrapped in the connection's CORE envelope (SOAP or MIME),
// sent (core-transport.ts: vetted target, verified TLS, CORE 156's 20 seconds), and the answer
// read. What comes of it:
//
//   271, the Coverage's loop answered      applied through the 271 road with the answers
//                                          arriving together (grouped-answers.ts, applyEligibility:
//                                          status, payor, period, its CoverageEligibilityResponse,
//                                          coverage.updated only when something changed):
//                                          outcome active or inactive
//   271 with AAA for the Coverage          nothing about the Coverage changes; the rejection is
//                                          kept (CoverageEligibilityResponse.error) and logged:
//                                          rejected. AAA 42 "unable to respond now" with a
//                                          resubmit action (P, R) is retried like a timeout.
//   999 (the 270 refused)                  error, with the 999's codes; not retried
//   CORE envelope error (UnAuthorized...)  error, with the CORE code; not retried
//   timeout, refused or reset connection,  error, retried with backoff (the check stays
//   DNS, 5xx or 429 without an envelope     queued): `retry`, and counts for the breaker
//   TLS, redirect, address refused          error; not retried (the operator must fix the
//                                          connection)
//
// Nothing here logs: the worker records the exchange (exchange-log.ts), whose raw texts hold PHI.
import { randomUUID } from 'node:crypto';
import { nowIso } from '../db/clock.js';
import { subscriberLoops, type SubscriberLoop } from '../x12/eligibility-271.js';
import { X12Error } from '../x12/x12-error.js';
import type { SigningSecretCipher } from '../db/signing-secret-crypto.js';
import type { HostResolver } from '../webhooks/ssrf-guard.js';
import type { PinnedConnections } from '../webhooks/pinned-connections.js';
import type { GroupedAnswers } from './grouped-answers.js';
import { checkCoreAnswer, coreRequest, CoreEnvelopeError, PAYLOAD_270, PAYLOAD_271, PAYLOAD_999, readCoreResponse, type CoreEnvelope } from './core-envelope.js';
import { sendCoreRequest } from './core-transport.js';
import type { ControlNumbers } from './control-numbers.js';
import type { InquirySubject } from './eligibility-inquiry.js';
import type { EligibilityOutcome, ExchangeFacts } from './exchange-log.js';
import { build270, InvalidInquiry } from './x12-270.js';
import { read999 } from './x12-999.js';

export interface ExchangeDeps {
  cipher: SigningSecretCipher;
  resolve: HostResolver;
  allowPrivateTargets: boolean;
  timeoutMs: number;
  /** Extra trusted CA certificates (PEM). */
  ca?: string;
  signal?: AbortSignal;
  /** The worker's kept-alive connections, one pool per clearinghouse connection. */
  pools?: PinnedConnections;
  /** The process's interchange control numbers (control-numbers.ts). */
  controlNumbers: ControlNumbers;
  /** The worker's answers applied together (grouped-answers.ts). */
  answers: GroupedAnswers;
  /** Told once the clearinghouse's round trip is over (answered or failed): the worker's exchange slots are free before the answer is applied. */
  onRoundTripDone?: () => void;
}

export interface ExchangeResult extends ExchangeFacts {
  /** A transient failure: the check stays queued and is asked again later. */
  retry: boolean;
  /** The connection did not answer (or answered 5xx): counts towards pausing it. */
  connectionFailed: boolean;
  /** The service is stopping: nothing happened that needs recording; the check is given back. */
  aborted?: boolean;
  /** From sending the 270 to having the whole answer (the clearinghouse's part), when one was sent. */
  roundTripMs?: number;
}

/** Transport failures that a later attempt may not meet. */
const TRANSIENT = new Set(['timeout', 'connection_refused', 'connection_reset', 'dns', 'network']);

/** The actor ingest_writes names for Coverages written from an answer. */
export const ELIGIBILITY_ACTOR = 'eligibility-check';

function ourLoop(loops: SubscriberLoop[], subject: InquirySubject): SubscriberLoop | undefined {
  const byTrace = loops.find((l) => l.trace?.toLowerCase() === subject.coverageId);
  return byTrace ?? (loops.length === 1 && loops[0]!.memberId === subject.subscriber.memberId ? loops[0] : undefined);
}

export async function askPayer(deps: ExchangeDeps, subject: InquirySubject, now: () => number = Date.now): Promise<ExchangeResult> {
  const started = now();
  const startedAt = nowIso(started);
  const finish = (result: Omit<ExchangeResult, 'startedAt' | 'finishedAt' | 'durationMs' | 'coverageStatus'> & { coverageStatus?: string | null }): ExchangeResult => {
    const ended = now();
    return { coverageStatus: subject.coverageStatus, ...result, startedAt, finishedAt: nowIso(ended), durationMs: Math.max(0, Math.round(ended - started)) };
  };
  const connection = subject.connection;
  let password: string;
  try {
    password = deps.cipher.decrypt(connection.password_encrypted, connection.id);
  } catch {
    return finish({ outcome: 'error', retry: false, connectionFailed: false, detail: `the password of clearinghouse connection ${connection.id} does not decrypt with WEBHOOK_ENCRYPTION_KEY (or _PREVIOUS): set the connection again with ops clearinghouse set` });
  }
  const controlNumber = await deps.controlNumbers.next(connection.sender_id);
  let built;
  try {
    built = build270({
      senderId: connection.sender_id,
      receiverId: connection.receiver_id,
      controlNumber,
      production: connection.usage !== 'T',
      at: new Date(started),
      payer: subject.payer,
      provider: subject.provider,
      subscriber: subject.subscriber,
      ...(subject.dependent ? { dependent: subject.dependent } : {}),
      trace: subject.coverageId,
      serviceDate: startedAt.slice(0, 10),
    });
  } catch (error) {
    if (!(error instanceof InvalidInquiry)) throw error;
    return finish({ outcome: 'error', retry: false, connectionFailed: false, controlNumber: String(controlNumber), detail: `no 270 was sent: ${error.field} ${error.message}` });
  }
  const envelope: CoreEnvelope = {
    payloadType: PAYLOAD_270,
    processingMode: 'RealTime',
    payloadId: randomUUID(),
    timeStamp: new Date(started).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    senderId: connection.sender_id,
    receiverId: connection.receiver_id,
    coreRuleVersion: '2.2.0',
    payload: built.text,
  };
  let sent: { payloadId: string; controlNumber: string; requestX12: string; roundTripMs?: number } = { payloadId: envelope.payloadId, controlNumber: built.interchangeControlNumber, requestX12: built.text };
  const request = await coreRequest(connection.protocol, envelope, { username: connection.username, password });
  const answer = await sendCoreRequest({
    url: connection.url,
    body: request.body,
    contentType: request.contentType,
    headers: request.headers,
    timeoutMs: deps.timeoutMs,
    allowPrivateTargets: deps.allowPrivateTargets,
    resolve: deps.resolve,
    ...(deps.signal ? { signal: deps.signal } : {}),
    ...(deps.ca ? { ca: deps.ca } : {}),
    ...(deps.pools ? { connections: { pools: deps.pools, key: connection.id } } : {}),
  });
  deps.onRoundTripDone?.();
  sent = { ...sent, roundTripMs: answer.durationMs };
  if (!answer.ok) {
    if (answer.errorClass === 'aborted') return finish({ outcome: 'error', retry: true, connectionFailed: false, aborted: true, detail: 'the service stopped during the exchange', ...sent });
    const transient = TRANSIENT.has(answer.errorClass);
    return finish({
      outcome: 'error',
      retry: transient,
      connectionFailed: transient,
      codes: { error_class: answer.errorClass, ...(answer.status !== null ? { http_status: answer.status } : {}) },
      detail: `${answer.errorClass}: ${answer.detail}${transient ? '; retried later' : '; not retried: correct the connection (ops clearinghouse set)'}`,
      ...sent,
    });
  }
  const responseText = answer.body.toString('utf8');
  let read: CoreEnvelope;
  try {
    read = await readCoreResponse(connection.protocol, answer.body, answer.contentType);
  } catch (error) {
    if (!(error instanceof CoreEnvelopeError)) throw error;
    const transient = answer.status >= 500 || answer.status === 429;
    return finish({
      outcome: 'error',
      retry: transient,
      connectionFailed: transient,
      codes: { http_status: answer.status },
      detail: `HTTP ${answer.status} without a readable CORE envelope (${error.message})${transient ? '; retried later' : ''}`,
      ...sent,
    });
  }
  const verdict = checkCoreAnswer(envelope, read);
  if (!verdict.ok) {
    return finish({ outcome: 'error', retry: false, connectionFailed: false, codes: { core: { code: verdict.code, ...(read.errorMessage ? { message: read.errorMessage } : {}) }, ...(answer.status >= 300 ? { http_status: answer.status } : {}) }, detail: `the clearinghouse refused the envelope: ${verdict.code}: ${verdict.detail}`, ...sent });
  }
  const payload = read.payload!;
  const answered = { ...sent, responseX12: payload };
  if (read.payloadType === PAYLOAD_999) {
    let ack;
    try {
      ack = read999(payload);
    } catch (error) {
      if (!(error instanceof X12Error)) throw error;
      return finish({ outcome: 'error', retry: false, connectionFailed: false, detail: `the 999 could not be read: ${error.message}`, ...answered });
    }
    const first = ack.errors[0];
    return finish({ outcome: 'error', retry: false, connectionFailed: false, codes: { ack: { code: ack.code, errors: ack.errors } }, detail: `the payer refused the 270 (999 ${ack.code})${first ? `: ${first.segment ?? ''}${first.element ? `-${first.element}` : ''} ${first.description}`.trimEnd() : ''}`, ...answered });
  }
  if (read.payloadType !== PAYLOAD_271) return finish({ outcome: 'error', retry: false, connectionFailed: false, detail: `unexpected PayloadType ${read.payloadType}`, ...answered });
  let loops: SubscriberLoop[];
  try {
    loops = subscriberLoops(payload);
  } catch (error) {
    if (!(error instanceof X12Error)) throw error;
    return finish({ outcome: 'error', retry: false, connectionFailed: false, detail: `the 271 could not be read: ${error.message}`, ...answered });
  }
  const loop = ourLoop(loops, subject);
  if (!loop) return finish({ outcome: 'error', retry: false, connectionFailed: false, detail: `the 271 answers no question about this Coverage (no loop with TRN02 ${subject.coverageId})`, ...answered });
  // The loops read above: the 271 is read once.
  const target = { orgId: subject.orgId, facilityId: subject.facilityId, actor: ELIGIBILITY_ACTOR, today: startedAt.slice(0, 10) };
  const { summary, statuses } = await deps.answers.apply(loops, target);
  if (loop.rejections.length) {
    const aaa = loop.rejections.map((r) => ({ code: r.code, ...(r.action ? { action: r.action } : {}), reason: r.reason }));
    const later = loop.rejections.every((r) => r.code === '42' && (r.action === 'P' || r.action === 'R'));
    return finish({ outcome: later ? 'error' : 'rejected', retry: later, connectionFailed: false, codes: { aaa }, detail: `${aaa.map((a) => `${a.reason}${a.action ? ` (action ${a.action})` : ''}`).join('; ')}${later ? '; retried later' : '; the Coverage is unchanged'}`, ...answered });
  }
  if (summary.conflicts.some((c) => c.at === loop.at)) {
    return finish({ outcome: 'error', retry: true, connectionFailed: false, detail: 'the Coverage kept changing while the 271 was applied; asked again later', ...answered });
  }
  const unmatched = summary.unmatched.find((u) => u.at === loop.at) ?? summary.rejected.find((r) => r.at === loop.at);
  if (unmatched) return finish({ outcome: 'error', retry: false, connectionFailed: false, detail: `the 271 was not applied: ${unmatched.issue}`, ...answered });
  // The status the loop left the Coverage with, from the applying itself (no read after it). A
  // loop without a trace matched by its member id to another Coverage left this one as read.
  const status = statuses.get(subject.coverageId) ?? subject.coverageStatus;
  const outcome: EligibilityOutcome = status === 'active' ? 'active' : 'inactive';
  const changed = summary.updated > 0 ? 'Coverage updated' : 'Coverage unchanged';
  return finish({ outcome, retry: false, connectionFailed: false, coverageStatus: status, detail: `${outcome === 'active' ? 'active coverage' : 'no active coverage'} (EB01 ${loop.eligibility.join(',') || 'none'}); ${changed}`, ...answered });
}
