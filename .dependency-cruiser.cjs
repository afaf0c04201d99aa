// The layers of server/src, lowest first; a module imports only from its own layer or a lower
// one (docs/architecture.md). `npm run -s lint:layers` checks them; CI runs it after typecheck.
//
//   0 foundation   config, errors, logging, types
//   1 storage      db
//   2 rules        tenancy, audit, metrics
//   3 web          http, openapi
//   4 domain       auth, resources, ingest, hl7, x12, webhooks, messages, eligibility, bulk,
//                  console, quotas, organizations, events, retention, seed; and app-context.ts,
//                  the services the handlers are handed (it names the domain's types)
//   5 composition  service.ts, app.ts, api-backend.ts, operations.ts, main.ts, cli/
//
// Domain folders import one another where the domain needs it (an HL7 message is ingested and
// recorded in the message store; ingestion emits webhook events; eligibility answers arrive as
// X12; $export reads the R4 view...), but no module may sit on a circle of imports.
const SRC = '^server/src/';
const layers = [
  { name: 'foundation', path: `${SRC}(config|errors|logging|types)/` },
  { name: 'storage', path: `${SRC}db/` },
  { name: 'rules', path: `${SRC}(tenancy|audit|metrics)/` },
  { name: 'web', path: `${SRC}(http|openapi)/` },
  {
    name: 'domain',
    path: `${SRC}((auth|resources|ingest|hl7|x12|webhooks|messages|eligibility|bulk|console|quotas|organizations|events|retention|seed)/|app-context\\.ts$)`,
  },
];
const COMPOSITION = `${SRC}(cli/|(?!app-context\\.ts$)[^/]+\\.ts$)`;
// What a layer may import: its own layer and those below it. Anything else (a higher layer,
// the composition, a folder no layer names) is forbidden.
const ownAndBelow = (index) => layers.slice(0, index + 1).map((layer) => layer.path);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layers.map((layer, index) => ({
      name: `${layer.name}-imports-only-downward`,
      comment: `${layer.name} (${layer.path}) imports only from its own layer or a lower one`,
      severity: 'error',
      from: { path: layer.path },
      to: { pathNot: ownAndBelow(index) },
    })),
    {
      name: 'unfiled-folder',
      comment: 'every folder of server/src belongs to a layer: name its layer in .dependency-cruiser.cjs',
      severity: 'error',
      from: { path: SRC, pathNot: [...layers.map((layer) => layer.path), COMPOSITION] },
      to: {},
    },
    {
      name: 'no-circular',
      comment: 'no module sits on a circle of imports (between folders or within one)',
      severity: 'error',
      from: { path: SRC },
      to: { circular: true },
    },
  ],
  options: {
    includeOnly: SRC,
    // Type-only imports count: a type from a higher layer is a dependency on it all the same.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'], conditionNames: ['ofctx-source', 'import', 'node', 'default'] },
    moduleSystems: ['es6'],
  },
};
