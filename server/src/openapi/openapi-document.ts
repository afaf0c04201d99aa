// The contract, openapi/openapi.yaml, loaded once per process.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// js-yaml: about six times faster than `yaml` on this document, which matters at start-up.
import { load } from 'js-yaml';
import type { Document } from 'openapi-backend';

/** openapi/openapi.yaml of the repository, found upwards from this module (src/ or the dist/ bundle). */
function findOpenApiFile(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'openapi', 'openapi.yaml');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('openapi/openapi.yaml not found above the server code');
    dir = parent;
  }
}

export const OPENAPI_PATH = findOpenApiFile();

let cached: { text: string; document: Document } | undefined;

export function loadOpenApiDocument(): { text: string; document: Document } {
  if (!cached) {
    const text = readFileSync(OPENAPI_PATH, 'utf8');
    cached = { text, document: load(text) as Document };
  }
  return cached;
}

/** A fresh deep copy: openapi-backend dereferences the document it is given in place. */
export function openApiDocumentCopy(): Document {
  return structuredClone(loadOpenApiDocument().document);
}
