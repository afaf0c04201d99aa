// The shared vectors in test/vectors/signatures.json, with each body decoded to bytes.
import { readFileSync } from 'node:fs';

export interface SignatureVector {
  name: string;
  secret: string;
  body_base64: string;
  body_utf8?: string;
  signature: string;
}

export const vectorsFile = new URL('../../../test/vectors/signatures.json', import.meta.url);

export const vectorDocument = JSON.parse(readFileSync(vectorsFile, 'utf8')) as { description: string; cases: SignatureVector[] };

export const vectors = vectorDocument.cases.map((vector) => ({ ...vector, body: Buffer.from(vector.body_base64, 'base64') }));

export const goldenVector = vectors.find((vector) => vector.name === 'golden delivery envelope')!;
