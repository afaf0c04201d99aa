// The HL7 v2 MLLP listener inside the service (on when MLLP_PORT is set). MLLP has no
// authentication of its own, so the listener is closed by default: loopback only
// (MLLP_HOST), an allow-list of source addresses or networks (MLLP_ALLOWED_SOURCES, checked
// with node:net's BlockList before a byte is read), and TLS with the operator's certificate
// (MLLP_TLS_CERT/KEY, optionally client certificates from MLLP_TLS_CA).
// @medplum/hl7's Hl7Server cannot bind a host or speak TLS, so the server is node's own and
// each socket gets @medplum/hl7's Hl7Connection (the class Hl7Server uses) through the framing
// guard of mllp-frames.ts. Messages of one connection are applied one after another, in the
// order sent, each ACKed before the next is applied.
import { readFileSync } from 'node:fs';
import net, { BlockList, type AddressInfo, type Socket } from 'node:net';
import tls from 'node:tls';
import type { Hl7Message } from '@medplum/core';
import { Hl7Connection } from '@medplum/hl7';
import type { Knex } from 'knex';
import type { MllpConfig } from '../config/config.js';
import type { Logger } from '../logging/logger.js';
import { applyAdtTexts } from './adt-applier.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import { nakWithoutMessage } from './hl7-ack.js';
import { Hl7Failure } from './hl7-failure.js';
import { FramedSocket, type FrameProblem } from './mllp-frames.js';

const SHUTDOWN_GRACE_MS = 5000;
/** At most this many queued messages are applied together. */
const MAX_RUN = 200;

/** MLLP_ALLOWED_SOURCES: addresses (10.1.2.3, ::1) and networks (10.0.0.0/8) separated by commas. */
export function allowList(sources: string[]): BlockList | undefined {
  if (sources.length === 0) return undefined;
  const list = new BlockList();
  for (const source of sources) {
    const [address, prefix] = source.split('/');
    const type = net.isIPv6(address!) ? 'ipv6' : 'ipv4';
    if (!net.isIP(address!)) throw new Error(`MLLP_ALLOWED_SOURCES: ${JSON.stringify(source)} is not an IP address or network`);
    if (prefix === undefined) list.addAddress(address!, type);
    else {
      const bits = Number(prefix);
      if (!Number.isInteger(bits) || bits < 0 || bits > (type === 'ipv4' ? 32 : 128)) throw new Error(`MLLP_ALLOWED_SOURCES: ${JSON.stringify(source)} has a bad prefix length`);
      list.addSubnet(address!, bits, type);
    }
  }
  return list;
}

function allowed(list: BlockList | undefined, remote: string | undefined): boolean {
  if (!list) return true;
  if (!remote) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(remote);
  if (mapped) return list.check(mapped[1]!, 'ipv4') || list.check(remote, 'ipv6');
  return list.check(remote, net.isIPv6(remote) ? 'ipv6' : 'ipv4');
}

function problemNak(problem: FrameProblem, maxBytes: number) {
  const text = problem.head.toString('utf8').replace(/^\x0b/, '');
  const controlId = text.startsWith('MSH') && text[3] ? (text.split(/[\r\n]/, 1)[0]!.split(text[3])[9] ?? '').slice(0, 199) : '';
  const failure =
    problem.kind === 'oversize'
      ? new Hl7Failure('AR', 'internal_error', { segment: 'MSH', sequence: 1 }, `the message is ${problem.bytes} bytes, over the limit of ${maxBytes} (MLLP_MAX_MESSAGE_BYTES); nothing was applied`)
      : new Hl7Failure('AR', 'segment_sequence', { segment: 'MSH', sequence: 1 }, 'broken MLLP framing: a message must be sent as VT (0x0B), the message, FS (0x1C) CR (0x0D)');
  return nakWithoutMessage(failure, controlId);
}

export class MllpListener {
  private readonly sockets = new Map<Socket, { idle: Promise<void> }>();

  private constructor(
    readonly server: net.Server,
    private readonly logger: Logger,
    private readonly metrics: ServiceMetrics | undefined,
  ) {}

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  static async start(config: MllpConfig, db: Knex, logger: Logger, metrics?: ServiceMetrics): Promise<MllpListener> {
    const list = allowList(config.allowedSources);
    const server = config.tls
      ? tls.createServer({
          cert: readFileSync(config.tls.certFile),
          key: readFileSync(config.tls.keyFile),
          ...(config.tls.caFile ? { ca: readFileSync(config.tls.caFile), requestCert: true, rejectUnauthorized: true } : {}),
        })
      : net.createServer();
    const listener = new MllpListener(server, logger, metrics);
    server.maxConnections = config.maxConnections;
    const accept = (socket: Socket) => listener.accept(socket, list, config, db);
    if (config.tls) {
      // The allow-list is checked on the TCP connection, before the TLS handshake.
      server.on('connection', (socket: Socket) => {
        if (!allowed(list, socket.remoteAddress)) {
          logger.warn({ remote: socket.remoteAddress }, 'MLLP connection refused: source not in MLLP_ALLOWED_SOURCES');
          socket.destroy();
        }
      });
      server.on('secureConnection', accept);
      server.on('tlsClientError', (error: Error) => logger.warn({ err: error.message }, 'MLLP TLS handshake failed'));
    } else {
      server.on('connection', accept);
    }
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (error: Error) => logger.error({ err: error.message }, 'MLLP listener error'));
    logger.info({ host: config.host, port: listener.port, tls: Boolean(config.tls), allowList: config.allowedSources.length > 0 }, 'MLLP listener ready');
    return listener;
  }

  private accept(socket: Socket, list: BlockList | undefined, config: MllpConfig, db: Knex): void {
    if (!config.tls && !allowed(list, socket.remoteAddress)) {
      this.logger.warn({ remote: socket.remoteAddress }, 'MLLP connection refused: source not in MLLP_ALLOWED_SOURCES');
      socket.destroy();
      return;
    }
    socket.setNoDelay(true);
    // A sender that stops mid-message (or sits idle) gives its connection back after this long.
    socket.setTimeout(config.idleTimeoutMs, () => socket.destroy());
    const state = { idle: Promise.resolve() };
    this.sockets.set(socket, state);
    socket.on('close', () => this.sockets.delete(socket));
    // Frames waiting for their answer, in arrival order: a message's text, or a NAK already
    // decided (broken framing, oversize). Drained by one loop per connection, so answers go
    // out in order; what queued up while a message was applied is applied together.
    const pending: Array<{ text: string } | { ack: Hl7Message }> = [];
    let draining = false;
    let connection: Hl7Connection;
    const drain = async () => {
      while (pending.length > 0) {
        const items = pending.splice(0, MAX_RUN);
        let texts: string[] = [];
        const flushTexts = async () => {
          if (texts.length === 0) return;
          const outcomes = await applyAdtTexts(db, texts, (error) => this.logger.error({ err: error.message }, 'HL7 message could not be applied'));
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
          if (!framed.closed) connection.send(item.ack);
        }
        await flushTexts();
      }
    };
    const enqueue = (item: { text: string } | { ack: Hl7Message }) => {
      pending.push(item);
      if (draining) return;
      draining = true;
      state.idle = drain()
        .catch((error: Error) => this.logger.error({ err: error.message }, 'MLLP message handling failed'))
        .finally(() => {
          draining = false;
        });
    };
    const framed = new FramedSocket(socket, config.maxMessageBytes, (problem) => enqueue({ ack: problemNak(problem, config.maxMessageBytes) }));
    connection = new Hl7Connection(framed as unknown as Socket, 'utf-8');
    // Every frame is answered: a message @medplum/core could parse, or (not starting with MSH)
    // the frame's text, which applyAdtTexts NAKs naming why.
    let delivered: string | undefined;
    connection.addEventListener('message', (event) => {
      delivered = event.message.toString();
    });
    connection.addEventListener('error', () => {
      // Hl7Connection keeps the bytes of a frame it failed to parse and would prepend them to
      // every later frame; start it afresh. (The frame itself is answered below.)
      (connection as unknown as { resetBuffer(): void }).resetBuffer();
    });
    framed.on('frame', (frame: Buffer) => {
      // Only what starts like a message goes to Hl7Connection; the rest is answered from its text.
      if (frame.subarray(1, 4).toString('latin1') === 'MSH') framed.emit('data', frame);
      const text = delivered ?? frame.subarray(1, frame.length - 2).toString('utf8');
      delivered = undefined;
      enqueue({ text });
    });
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
