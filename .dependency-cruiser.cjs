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
// Domain folders import one another where the domain needs it; today that is (a new pair
// belongs in this list, with its reason):
//   hl7, x12, seed -> ingest            every source writes through applyChangeSet
//   bulk, webhooks -> ingest            the organization's ingest clock ($export's instant,
//                                       the outbox's lock on the organization's writes)
//   ingest -> webhooks, eligibility     a change queues its events and eligibility checks in
//                                       its own transaction
//   ingest, hl7, x12 -> messages        every inbound message is stored with its outcome;
//   messages -> hl7, x12, ingest        reprocessing runs a stored message down its road again
//   hl7, messages, console -> organizations   facilities by HL7 code, names on pages
//   auth, bulk, events, webhooks, hl7 -> resources   granular scopes name R4 search parameters;
//                                       exports and notifications render records; paging;
//                                       the Observation codes
//   resources -> ingest, webhooks       the Coverage mapping's detail elements; Subscription
//                                       topics in the CapabilityStatement
//   auth <-> quotas                     a credential's quota override; quotas count per client
//   auth, events, eligibility, console -> webhooks   the SSRF guard for a client's key set URL,
//                                       event data, eligibility events, the console's actions
//   webhooks, bulk, events, console -> auth   the caller's principal and credentials
//   eligibility -> x12                  a 271 answer is applied as the inbound ones are
//   retention -> bulk                   expired export files
//   console -> messages                 the message pages
// Folders of the domain layer may thus import each other both ways; what is forbidden
// everywhere is a module on a circle of imports (no-circular below).
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
