// A JSON answer serialized once, by the handler that needs its bytes anyway (a list's ETag is a
// digest of them), instead of once for the digest and again by Koa. Dispatch sends the bytes
// as they are, with the content type Koa gives a JSON body, so the answer is byte for byte
// what Koa would have written.
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export class RenderedJson {
  private constructor(readonly bytes: Buffer) {}

  /** `JSON.stringify(value)` as UTF-8, exactly what Koa sends for an object body. */
  static of(value: unknown): RenderedJson {
    return new RenderedJson(Buffer.from(JSON.stringify(value), 'utf8'));
  }

  /** JSON text serialized already (a list from its rows' texts: http/rendered-rows.ts). */
  static ofText(json: string): RenderedJson {
    return new RenderedJson(Buffer.from(json, 'utf8'));
  }
}
