// The contract, served: as YAML (byte for byte), as JSON, and as a human reference page
// rendered by Redoc from the bundle in node_modules (no CDN, so it works offline and leaks
// no visits to third parties).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadOpenApiDocument } from '../openapi/openapi-document.js';
import type { PublicOperationHandler } from './operation.js';

const require = createRequire(import.meta.url);
let redocBundle: string | undefined;
let documentJson: string | undefined;

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>ofctx Integration API reference</title>
  <style>body { margin: 0; padding: 0; }</style>
</head>
<body>
  <div id="redoc-container"></div>
  <script src="/docs/redoc.standalone.js"></script>
  <script>
    Redoc.init('/openapi.json', { hideDownloadButton: false, expandResponses: '200,201', pathInMiddlePanel: true }, document.getElementById('redoc-container'));
  </script>
</body>
</html>
`;

// Redoc styles inline and runs its search in a blob worker; everything else is same-origin.
const PAGE_SECURITY = {
  'Content-Security-Policy': "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; worker-src 'self' blob:; font-src 'self' data:; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
};

export const apiReferenceOperations: Record<string, PublicOperationHandler> = {
  getApiReference: async () => ({ body: PAGE, headers: { 'Content-Type': 'text/html; charset=utf-8', ...PAGE_SECURITY } }),
  getApiReferenceScript: async () => {
    redocBundle ??= readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8');
    return { body: redocBundle, headers: { 'Content-Type': 'application/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=3600', 'X-Content-Type-Options': 'nosniff' } };
  },
  getOpenApiJson: async () => {
    documentJson ??= JSON.stringify(loadOpenApiDocument().document);
    return { body: documentJson, headers: { 'Content-Type': 'application/json; charset=utf-8' } };
  },
  getOpenApiYaml: async () => ({ body: loadOpenApiDocument().text, headers: { 'Content-Type': 'application/yaml; charset=utf-8' } }),
};
