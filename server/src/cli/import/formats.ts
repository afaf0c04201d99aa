// The formats `ops import` recognizes, asked in this order. A new source format (X12 271,
// HL7 v2...) is an Importer in a file of its own, listed here.
import type { Importer } from './importer.js';
import { fhirBundleImporter } from './fhir-bundle-importer.js';
import { fhirNdjsonImporter } from './fhir-ndjson-importer.js';
import { x12EligibilityImporter } from './x12-271-importer.js';

export const IMPORTERS: Importer[] = [fhirBundleImporter, fhirNdjsonImporter, x12EligibilityImporter];

export function detectFormat(head: string): Importer | undefined {
  return IMPORTERS.find((importer) => importer.detect(head));
}
