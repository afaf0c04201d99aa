// openapi-backend validates with draft-07 Ajv and ignores `format` by default; the contract
// is OpenAPI 3.1 (JSON Schema 2020-12) and relies on `format: uuid`, so every validator it
// builds is an Ajv 2020 instance with ajv-formats.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { UUID_PATTERN } from '../db/uuid.js';
import type { Ajv } from 'ajv';

export function ajv2020(_original: Ajv, options: Record<string, unknown>): Ajv {
  // validateSchema off: each instance would otherwise compile the 2020 meta-schema to check
  // schemas Redocly already lints, a large share of start-up and of each first request.
  const ajv = new Ajv2020({ ...options, strict: false, allErrors: true, validateSchema: false });
  addFormats.default(ajv);
  // ajv-formats' uuid also accepts a `urn:uuid:` prefix, which no id of ours has and which
  // PostgreSQL's uuid columns reject. Upper case is accepted here and lowered before use
  // (see normalizedParams), so both databases answer alike.
  ajv.addFormat('uuid', UUID_PATTERN);
  // OpenAPI keywords that are not JSON Schema.
  ajv.addKeyword('example');
  return ajv as unknown as Ajv;
}
