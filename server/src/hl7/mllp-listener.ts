// The HL7 v2 MLLP listener inside the service (on when MLLP_PORT is set). MLLP has no
// authentication of its own, so the listener is closed by default: loopback only
// (MLLP_HOST), an allow-list of source addresses or networks (MLLP_ALLOWED_SOURCES, checked
// with node:net's BlockList before a byte is read), and TLS with the operator's certificate
// (MLLP_TLS_CERT/KEY, optionally client certificates from MLLP_TLS_CA). So that no sender can
// hold every connection, each TCP connection goes through mllp-admission.ts (per-source limit,
// the share kept for MLLP_RESERVED_SOURCES) and must send its first byte (for TLS: finish the
// handshake and send) within MLLP_FIRST_BYTE_TIMEOUT_MS.
// @medplum/hl7's Hl7Server cannot bind a host or speak TLS, so the server is node's own: each
// socket's frames are read by the framing guard of mllp-frames.ts, and its answers are written
// by @medplum/hl7's Hl7Connection (the class Hl7Server uses). Messages of one connection are
// applied one after another, in the order sent, each ACKed before the next is applied.
import { readFileSync } from 'node:fs';
import net, { type AddressInfo, type Socket } from 'node:net';
import tls from 'node:tls';
import type { Hl7Message } from '@medplum/core';
import { Hl7Connection } from '@medplum/hl7';
import type { Knex } from 'knex';
import type { MllpConfig } from '../config/config.js';
import type { Logger } from '../logging/logger.js';
import { applyHl7Texts } from './message-applier.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { MessageStore } from '../messages/message-store.js';
import { attributedOrganization } from '../messages/message-attribution.js';
import { answerOfAck, receivedHl7 } from './hl7-received.js';
import { nakWithoutMessage } from './hl7-ack.js';
import { Hl7Failure } from './hl7-failure.js';
import { FramedSocket, type FrameProblem } from './mllp-frames.js';
import { frameText } from './frame-text.js';
import { MllpAdmission, sourceAddress, type AdmissionRefusal } from './mllp-admission.js';
import { sourceList } from '../config/address-list.js';
import { sourceFacilities, type SourceFacilities } from '../config/mllp-source-facilities.js';

const SHUTDOWN_GRACE_MS = 5000;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** At most this many queued messages are applied together. */
const MAX_RUN = 200;

/** MLLP_ALLOWED_SOURCES as a BlockList (undefined: any source). */
export const allowList = (sources: string[]) => sourceList(sources, 'MLLP_ALLOWED_SOURCES');

/** Refusals are logged once per source and reason in this long, with how many there were. */
const REFUSAL_LOG_INTERVAL_MS = 60_000;

function problemNak(problem: FrameProblem, maxBytes: number) {
  const text = problem.head.toString('utf8').replace(/^\x0b/, '');
  const controlId = text.startsWith('MSH') && text[3] ? (text.split(/[\r\n]/, 1)[0]!.split(text[3])[9] ?? '').slice(0, 199) : '';
  const failure =
    problem.kind === 'oversize'
      ? new Hl7Failure('AR', 'internal_error', { segment: 'MSH', sequence: 1 }, `the message is ${problem.bytes} bytes, over the limit of ${maxBytes} (MLLP_MAX_MESSAGE_BYTES); nothing was applied`)
      : new Hl7Failure('AR', 'segment_sequence', { segment: 'MSH', sequence: 1 }, 'broken MLLP framing: a message must be sent as VT (0x0B), the message, FS (0x1C) CR (0x0D)');
  return nakWithoutMessage(failure, controlId);
}

type ClosedReason = AdmissionRefusal | 'first_byte_timeout';

export class MllpListener {
  private readonly sockets = new Map<Socket, { idle: Promise<void> }>();
  /** Connections still waiting for their first byte, by remote address and port: clears the timer. */
  private readonly awaitingFirstByte = new Map<string, () => void>();
  private readonly refusalLog = new Map<string, { at: number; suppressed: number }>();
  /** MLLP_SOURCE_FACILITIES: the facility code a source is bound to, if exactly one. */
  private boundFacility: SourceFacilities = () => undefined;
  private admission: MllpAdmission | undefined;

  private constructor(
    readonly server: net.Server,
    private readonly logger: Logger,
    private readonly metrics: ServiceMetrics | undefined,
    private readonly store: MessageStore | undefined,
  ) {}

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The connections open on this listener now, by source address. */
  openConnections(): Array<{ source: string; open: number }> {
    return this.admission?.openBySource() ?? [];
  }

  static async start(config: MllpConfig, db: Knex, logger: Logger, metrics?: ServiceMetrics, store?: MessageStore): Promise<MllpListener> {
    const admission = new MllpAdmission({
      allowed: allowList(config.allowedSources),
      reserved: sourceList(config.reservedSources, 'MLLP_RESERVED_SOURCES'),
      maxConnections: config.maxConnections,
      maxPerSource: config.maxConnectionsPerSource,
      reservedConnections: config.reservedConnections,
    });
    const server = config.tls
      ? tls.createServer({
          cert: readFileSync(config.tls.certFile),
          key: readFileSync(config.tls.keyFile),
          ...(config.tls.caFile ? { ca: readFileSync(config.tls.caFile), requestCert: true, rejectUnauthorized: true } : {}),
        })
      : net.createServer();
    const listener = new MllpListener(server, logger, metrics, store);
    listener.boundFacility = sourceFacilities(config.sourceFacilities);
    listener.admission = admission;
    // Every TCP connection is admitted (or refused) before a byte is read, TLS or not; with TLS
    // the first-byte timer also bounds the handshake.
    server.on('connection', (socket: Socket) => {
      if (!listener.admit(socket, admission, config) || config.tls) return;
      listener.accept(socket, config, db);
    });
    if (config.tls) {
      server.on('secureConnection', (socket: Socket) => listener.accept(socket, config, db));
      server.on('tlsClientError', (error: Error) => logger.warn({ err: error.message }, 'MLLP TLS handshake failed'));
    }
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (error: Error) => logger.error({ err: error.message }, 'MLLP listener error'));
    logger.info(
      { host: config.host, port: listener.port, tls: Boolean(config.tls), allowList: config.allowedSources.length > 0, maxConnections: config.maxConnections, maxConnectionsPerSource: config.maxConnectionsPerSource, reservedConnections: config.reservedConnections, firstByteTimeoutMs: config.firstByteTimeoutMs },
      'MLLP listener ready',
    );
    return listener;
  }

  /** Takes or refuses a TCP connection; a taken one holds its place until it closes. */
  private admit(socket: Socket, admission: MllpAdmission, config: MllpConfig): boolean {
    const decision = admission.admit(socket.remoteAddress);
    if (!decision.admitted) {
      this.closed(decision.source, decision.reason);
      socket.destroy();
      return false;
    }
    this.metrics?.mllpConnectionsOpen.set(admission.open);
    const key = `${socket.remoteAddress}|${socket.remotePort}`;
    const timer =
      config.firstByteTimeoutMs > 0
        ? setTimeout(() => {
            this.awaitingFirstByte.delete(key);
            this.closed(decision.source, 'first_byte_timeout');
            socket.destroy();
          }, config.firstByteTimeoutMs)
        : undefined;
    timer?.unref();
    if (timer) this.awaitingFirstByte.set(key, () => clearTimeout(timer));
    socket.once('close', () => {
      clearTimeout(timer);
      this.awaitingFirstByte.delete(key);
      decision.release();
      this.metrics?.mllpConnectionsOpen.set(admission.open);
    });
    return true;
  }

  /** Counts a refused connection, and logs it (the source address and why: never a byte of what it sent). */
  private closed(source: string, reason: ClosedReason): void {
    this.metrics?.mllpConnectionsRefused.inc({ reason });
    const key = `${source}|${reason}`;
    const now = Date.now();
    const last = this.refusalLog.get(key);
    if (last && now - last.at < REFUSAL_LOG_INTERVAL_MS) {
      last.suppressed++;
      return;
    }
    if (this.refusalLog.size > 1000) for (const [k, v] of this.refusalLog) if (now - v.at >= REFUSAL_LOG_INTERVAL_MS) this.refusalLog.delete(k);
    this.refusalLog.set(key, { at: now, suppressed: 0 });
    const why: Record<ClosedReason, string> = {
      source_not_allowed: 'source not in MLLP_ALLOWED_SOURCES',
      source_limit: 'the source holds MLLP_MAX_CONNECTIONS_PER_SOURCE connections',
      capacity: 'MLLP_MAX_CONNECTIONS reached (or the share left to sources outside MLLP_RESERVED_SOURCES)',
      first_byte_timeout: 'nothing sent within MLLP_FIRST_BYTE_TIMEOUT_MS',
    };
    this.logger.warn({ remote: source, reason, refusedSinceLastLine: last?.suppressed ?? 0 }, `MLLP connection ${reason === 'first_byte_timeout' ? 'closed' : 'refused'}: ${why[reason]}`);
  }

  private accept(socket: Socket, config: MllpConfig, db: Knex): void {
    const firstByte = `${socket.remoteAddress}|${socket.remotePort}`;
    socket.once('data', () => {
      this.awaitingFirstByte.get(firstByte)?.();
      this.awaitingFirstByte.delete(firstByte);
    });
    const peer = sourceAddress(socket.remoteAddress);
    const boundFacilityCode = this.boundFacility(peer);
    socket.setNoDelay(true);
    // A sender that stops mid-message (or sits idle) gives its connection back after this long.
    socket.setTimeout(config.idleTimeoutMs, () => socket.destroy());
    const state = { idle: Promise.resolve() };
    this.sockets.set(socket, state);
    socket.on('close', () => this.sockets.delete(socket));
    // Frames waiting for their answer, in arrival order: a message's text, or a NAK already
    // decided (broken framing, oversize). Drained by one loop per connection, so answers go
    // out in order; what queued up while a message was applied is applied together.
    const pending: Array<{ text: string } | { ack: Hl7Message; problem: FrameProblem }> = [];
    let draining = false;
    let connection: Hl7Connection;
    const drain = async () => {
      while (pending.length > 0) {
        const items = pending.splice(0, MAX_RUN);
        let texts: string[] = [];
        const flushTexts = async () => {
          if (texts.length === 0) return;
          const outcomes = await applyHl7Texts(db, texts, (error) => this.logger.error({ err: error }, 'HL7 message could not be applied'), { boundFacilityCode, store: this.store, peer });
          texts = [];
          for (const outcome of outcomes) {
            this.metrics?.ingest.inc({ source: 'hl7v2', outcome: outcome.result });
            if (!framed.closed) connection.send(outcome.ack);
          }
        };
        for (const item of items) {
          if ('text' in item) {
            texts.push(item.text);
            continue;
          }
          await flushTexts();
          await this.storeProblem(db, item.problem, item.ack, peer, boundFacilityCode);
          if (!framed.closed) connection.send(item.ack);
        }
        await flushTexts();
      }
    };
    const enqueue = (item: { text: string } | { ack: Hl7Message; problem: FrameProblem }) => {
      pending.push(item);
      if (draining) return;
      draining = true;
      state.idle = drain()
        .catch((error: Error) => this.logger.error({ err: error }, 'MLLP message handling failed'))
        .finally(() => {
          draining = false;
        });
    };
    const framed = new FramedSocket(socket, config.maxMessageBytes, (problem) => enqueue({ ack: problemNak(problem, config.maxMessageBytes), problem }));
    // Hl7Connection encodes and frames the answers; the frames themselves are read as text
    // here (frame-text.ts) and parsed once, by the applier. Every frame is answered: a message,
    // or (not starting with MSH) the frame's text, which applyHl7Texts NAKs naming why.
    connection = new Hl7Connection(framed as unknown as Socket, 'utf-8');
    framed.on('frame', (received: Buffer) => {
      // A UTF-8 byte-order mark before MSH (engines that went through a text file) is not part of the message.
      const frame = received.subarray(1, 4).equals(UTF8_BOM) ? Buffer.concat([received.subarray(0, 1), received.subarray(4)]) : received;
      enqueue({ text: frameText(frame) });
    });
  }

  /**
   * A frame answered without being read as a message (broken framing, over MLLP_MAX_MESSAGE_BYTES)
   * is stored too, refused: what was kept of it (the whole frame, or the head of one too large,
   * with its full size), so the operator sees what the sender sent and was told.
   */
  private async storeProblem(db: Knex, problem: FrameProblem, ack: Hl7Message, peer: string, boundFacilityCode: string | undefined): Promise<void> {
    if (!this.store) return;
    try {
      const text = problem.head.toString('utf8').replace(/^\x0b/, '').replace(/\x1c\r?$/, '');
      const received = { ...receivedHl7(text, { peer }), ...(problem.kind === 'oversize' ? { sizeBytes: problem.bytes } : {}) };
      const answer = answerOfAck(ack);
      await this.store.store({ ...received, orgId: await attributedOrganization(db, boundFacilityCode) }, { status: 'refused', answer, records: [] });
    } catch (error) {
      this.logger.error({ err: error }, 'a refused MLLP frame could not be stored');
    }
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    // Messages being applied get their ACK; then every connection is closed.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all([...this.sockets.values()].map((s) => s.idle)), new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_GRACE_MS)))]);
    clearTimeout(timer);
    for (const socket of this.sockets.keys()) socket.destroy();
    await closed;
  }
}
