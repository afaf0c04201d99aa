// A raw MLLP sender for tests and benchmarks: writes bytes exactly as given (to send broken
// framing, pipelined frames, slow or oversize messages) and reads the ACK frames back, parsed
// with @medplum/core's Hl7Message.
import { Hl7Message } from '@medplum/core';
import net from 'node:net';
import tls from 'node:tls';

export const frame = (message: string) => Buffer.concat([Buffer.from([0x0b]), Buffer.from(message, 'utf8'), Buffer.from([0x1c, 0x0d])]);

export interface MllpTestClient {
  socket: net.Socket;
  write(data: Buffer | string): void;
  /** Resolves with the next `n` ACKs. */
  acks(n: number, timeoutMs?: number): Promise<Hl7Message[]>;
  send(message: string): Promise<Hl7Message>;
  closed(): Promise<void>;
  close(): void;
}

/** localAddress: the source address (on Linux every 127.x.y.z is loopback, each a distinct source). */
export async function mllpClient(port: number, options: { tls?: tls.ConnectionOptions; localAddress?: string } = {}): Promise<MllpTestClient> {
  const at = { host: '127.0.0.1', port, ...(options.localAddress ? { localAddress: options.localAddress } : {}) };
  const socket = options.tls ? tls.connect({ ...at, ...options.tls }) : net.connect(at);
  await new Promise<void>((resolve, reject) => {
    socket.once(options.tls ? 'secureConnect' : 'connect', () => resolve());
    socket.once('error', reject);
  });
  socket.on('error', () => {});
  let buffer = Buffer.alloc(0);
  const received: Hl7Message[] = [];
  let waiter: (() => void) | undefined;
  socket.on('data', (data: Buffer) => {
    buffer = Buffer.concat([buffer, data]);
    for (let end = buffer.indexOf(Buffer.from([0x1c, 0x0d])); end !== -1; end = buffer.indexOf(Buffer.from([0x1c, 0x0d]))) {
      received.push(Hl7Message.parse(buffer.subarray(1, end).toString('utf8')));
      buffer = buffer.subarray(end + 2);
    }
    waiter?.();
  });
  const closedPromise = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  closedPromise.then(() => waiter?.());
  const client: MllpTestClient = {
    socket,
    write: (data) => void socket.write(data),
    async acks(n, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < n) {
        if (socket.destroyed) throw new Error(`connection closed after ${received.length} of ${n} ACKs`);
        if (Date.now() > deadline) throw new Error(`only ${received.length} of ${n} ACKs`);
        // The timer only re-checks the deadline; cleared once data arrives, so a sender waiting
        // for each ACK leaves no timer behind per message (the benchmarks' senders: each
        // stray timer woke the sender process once more, on the cores the service shares).
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 100);
          waiter = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      return received.splice(0, n);
    },
    async send(message) {
      socket.write(frame(message));
      return (await client.acks(1))[0]!;
    },
    closed: () => closedPromise,
    close: () => socket.destroy(),
  };
  return client;
}

export const msa = (ack: Hl7Message) => ({ code: ack.getSegment('MSA')?.getField(1)?.toString(), controlId: ack.getSegment('MSA')?.getField(2)?.toString(), err: ack.getSegment('ERR')?.toString() });
