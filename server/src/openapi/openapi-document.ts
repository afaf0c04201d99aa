// The contract, openapi/openapi.yaml, loaded once per process.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { Document } from 'openapi-backend';

export const OPENAPI_PATH = fileURLToPath(new URL('../../../openapi/openapi.yaml', import.meta.url));

let cached: { text: string; document: Document } | undefined;

export function loadOpenApiDocument(): { text: string; document: Document } {
  if (!cached) {
    const text = readFileSync(OPENAPI_PATH, 'utf8');
    cached = { text, document: parse(text) as Document };
  }
  return cached;
}

/** A fresh deep copy: openapi-backend dereferences the document it is given in place. */
export function openApiDocumentCopy(): Document {
  return structuredClone(loadOpenApiDocument().document);
}
