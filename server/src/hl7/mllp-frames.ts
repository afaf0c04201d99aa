// MLLP framing guard between a TCP/TLS socket and the listener (mllp-listener.ts).
// @medplum/hl7's Hl7Connection, which encodes and frames the listener's answers, would take a
// message as complete when one socket read ends with FS CR: two pipelined messages in one
// read, or a read that splits a frame right after FS, would be lost, and it buffers without
// bound. So frames are read here instead: exactly one whole frame (VT ... FS CR) per 'frame'
// event, and what is no frame at all (bytes outside VT, a frame over the size limit) answered
// by the listener without being read as a message. Hl7Connection writes through this stand-in.
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';

const VT = 0x0b;
const FS = 0x1c;
const CR = 0x0d;
/** How much of an oversize or broken frame is kept to read its MSH-10 for the NAK. */
const HEAD_BYTES = 1024;

export type FrameProblem = { kind: 'framing'; head: Buffer } | { kind: 'oversize'; head: Buffer; bytes: number };

export class FramedSocket extends EventEmitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Over the limit: bytes are dropped until the frame ends; the head is kept. */
  private discarding: { head: Buffer; bytes: number } | undefined;

  constructor(
    readonly socket: Socket,
    private readonly maxFrameBytes: number,
    private readonly onProblem: (problem: FrameProblem) => void,
  ) {
    super();
    socket.on('data', (data: Buffer) => this.read(data));
    socket.on('error', (error) => this.emit('error', error));
    socket.on('close', () => this.emit('close'));
  }

  get closed(): boolean {
    return this.socket.destroyed;
  }

  write(data: Buffer): boolean {
    if (this.socket.destroyed || !this.socket.writable) return false;
    return this.socket.write(data);
  }

  end(): void {
    this.socket.end();
  }

  destroy(): void {
    this.socket.destroy();
  }

  private read(data: Buffer): void {
    let start = 0;
    // The previous read ended with FS, this one starts with its CR.
    if (data[0] === CR && this.lastPendingByte() === FS) {
      this.keep(data.subarray(0, 1));
      this.complete();
      start = 1;
    }
    while (start < data.length) {
      const end = this.frameEnd(data, start);
      if (end === -1) {
        this.keep(data.subarray(start));
        return;
      }
      this.keep(data.subarray(start, end + 2));
      this.complete();
      start = end + 2;
    }
  }

  /** Index of the FS of the next FS CR at or after `from`, or -1. */
  private frameEnd(data: Buffer, from: number): number {
    for (let i = data.indexOf(FS, from); i !== -1; i = data.indexOf(FS, i + 1)) {
      if (i + 1 < data.length && data[i + 1] === CR) return i;
    }
    return -1;
  }

  private lastPendingByte(): number | undefined {
    if (this.discarding) return this.discarding.head.at(-1);
    const last = this.pending.at(-1);
    return last?.at(-1);
  }

  private keep(part: Buffer): void {
    if (part.length === 0) return;
    if (this.discarding) {
      this.discarding.bytes += part.length;
      if (this.discarding.head.length < HEAD_BYTES) this.discarding.head = Buffer.concat([this.discarding.head, part]).subarray(0, HEAD_BYTES);
      else this.discarding.head = Buffer.concat([this.discarding.head.subarray(0, HEAD_BYTES - 1), part.subarray(-1)]);
      return;
    }
    this.pending.push(part);
    this.pendingBytes += part.length;
    if (this.pendingBytes > this.maxFrameBytes + 3) {
      const all = Buffer.concat(this.pending);
      this.discarding = { head: Buffer.concat([all.subarray(0, HEAD_BYTES - 1), all.subarray(-1)]), bytes: all.length };
      this.pending = [];
      this.pendingBytes = 0;
    }
  }

  private complete(): void {
    if (this.discarding) {
      const { head, bytes } = this.discarding;
      this.discarding = undefined;
      this.onProblem({ kind: 'oversize', head, bytes });
      return;
    }
    let frame = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    // Line breaks or padding some senders put between frames are not part of a frame.
    let skip = 0;
    while (skip < frame.length && (frame[skip] === CR || frame[skip] === 0x0a || frame[skip] === 0x20)) skip++;
    frame = frame.subarray(skip);
    if (frame[0] !== VT || frame.length < 3) {
      this.onProblem({ kind: 'framing', head: frame.subarray(0, HEAD_BYTES) });
      return;
    }
    // The listener reads it as text (frame-text.ts).
    this.emit('frame', frame);
  }
}
