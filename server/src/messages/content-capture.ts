// The content of a streamed message (FHIR NDJSON over HTTP, `ops import`), kept for the message
// store as it passes, up to a limit (INGEST_MAX_BUNDLE_BYTES): a stream of millions of lines is
// stored with its size and outcome, not its content (it cannot be reprocessed from the store;
// the sender's file is the copy).
export class ContentCapture {
  private chunks: Buffer[] = [];
  bytes = 0;

  constructor(private readonly limit: number) {}

  /** The source, unchanged, with what passes kept. */
  async *through(source: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer> {
    for await (const chunk of source) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      this.bytes += buffer.length;
      if (this.bytes <= this.limit) this.chunks.push(buffer);
      else this.chunks = [];
      yield buffer;
    }
  }

  /** The whole content, or null when it was over the limit. */
  content(): string | null {
    return this.bytes <= this.limit ? Buffer.concat(this.chunks).toString('utf8') : null;
  }
}
