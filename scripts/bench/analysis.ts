// The written analysis of docs/benchmarks.md: what the figures mean, why a target is missed,
// and what would fix it. Figures quoted from this run are computed from the results; figures
// from one-off investigations (EXPLAIN plans, query counts, scratch prototypes outside the
// repository) are marked "investigation, 2026-11-22" and were measured on this same machine.
import { GROWTH_REQUESTS } from './growth.js';
import type { BenchResults } from './results-store.js';
import { count, ratio } from './stats.js';

const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(0)}%`;

function listAnalysis(results: BenchResults): string[] {
  const list = results.list?.result;
  if (!list) return [];
  const perRequestMs = (rps: number) => (1000 / rps).toFixed(2);
  const share = (name: string) => list.profile?.byArea.find((a) => a.name === name);
  const sqlite = (share('knex')?.selfPercent ?? 0) + (share('better-sqlite3')?.selfPercent ?? 0);
  return [
    '### List throughput: out of reach for this architecture, and why',
    '',
    `The bare server spends about ${perRequestMs(list.bare.requestsPerSecond)} ms of CPU per answer; the service spends about ${perRequestMs(list.coverageList.requestsPerSecond)} ms (one busy core each; the load generator has the other). Reaching 0.6 of the baseline would leave under ${perRequestMs(0.6 * list.bare.requestsPerSecond)} ms per request for everything: the token check, routing, validating the request against the contract, the tenancy check, reading and mapping 50 rows, serializing ${count(list.responseBytes)} bytes of JSON, and the audit insert. Reading the 50 rows alone costs more than that: better-sqlite3 with a statement prepared once takes about 0.3 ms for \`SELECT * ... WHERE facility_id = ? ORDER BY seq LIMIT 50\` returning arrays and 0.5 ms returning objects (investigation, 2026-11-22, on the 10,000-resident database; the plan is the \`(facility_id, seq)\` index, no sort). Even \`/healthz\`, which touches no database, reaches only ${ratio(list.healthz.requestsPerSecond, list.bare.requestsPerSecond)} of the baseline: Koa's context, the request-id and access-log middlewares and openapi-backend's routing cost more than Node's HTTP stack itself.`,
    '',
    list.profile
      ? `The profile says where the ${perRequestMs(list.coverageList.requestsPerSecond)} ms go: ${sqlite.toFixed(0)}% in knex + better-sqlite3 (statement preparation on every query, which knex does not cache, and SQLite executing: the page query, the facility total, the token lookup when the 2-second cache expires, and the audit-trail INSERT with the 50 returned ids, about 0.3 ms on its own in WAL mode); ${(share('openapi-backend')?.inclusivePercent ?? 0).toFixed(0)}% inclusive in openapi-backend (routing through lodash and bath-es5 path templates on every request, then Ajv request validation); ${(share('koa')?.inclusivePercent ?? 0).toFixed(0)}% inclusive in Koa (which includes serializing and writing the response); socket writes and the rest of Node's HTTP stack account for the remainder. The p99 (${list.coverageList.p99Ms} ms) is queueing: ${list.connections} connections share one event loop whose every request is synchronous SQLite work, so a request waits behind the others; it tracks the throughput gap, not a stall.`
      : '',
    '',
    'What would move it, in the order of expected gain per effort (proposals; not changed here):',
    '',
    '1. **Prepared-statement cache for the hot queries.** knex prepares every statement on every call (better-sqlite3 `prepare` is a visible share of the profile). Issuing the four hot statements (page, total, token lookup, audit insert) through cached better-sqlite3 statements saved about 0.2 ms per page query in isolation (0.70 ms prepared each time vs 0.49 ms prepared once; investigation, 2026-11-22).',
    '2. **Group-commit the audit trail, still synchronously.** Keep the guarantee (a request is answered only once its audit row is committed) but commit the rows of all requests finished in the same event-loop turn in one transaction: one WAL commit for many requests instead of one each.',
    '3. **Validators compiled at start-up.** Routing already uses a table compiled once (`server/src/openapi/operation-matcher.ts`; openapi-backend compiled a RegExp per operation per request); what openapi-backend still costs per request is parsing the request (bath-es5 path templates) and Ajv validation, and each operation\'s validators are compiled on its first request.',
    '4. **Lists as arrays of JSON fragments.** Mapping 50 rows to FHIR objects and `JSON.stringify`ing the envelope is a fixed cost per row; columns that are already JSON text (identifiers, quantities) could be spliced instead of parsed and re-serialized.',
    '',
    'Each removes a measurable part of the per-request cost; none brings a request that reads, maps, serializes and audits 50 rows near a server that only writes bytes. A fair target for this stack is a ratio to `/healthz` through the same stack (here ' + ratio(list.coverageList.requestsPerSecond, list.healthz.requestsPerSecond) + '), or an absolute figure per core.',
  ];
}

function growthAnalysis(results: BenchResults): string[] {
  const sizes = results.growth?.result.sizes;
  if (sizes?.length !== 2) return [];
  const x = (request: (typeof GROWTH_REQUESTS)[number]) => ratio(sizes[1]!.results[request].p50Ms, sizes[0]!.results[request].p50Ms);
  return [
    '### Growth: flat everywhere but the deep page, which is OFFSET',
    '',
    `Page 1 (${x('list page 1')}x), one resident's list (${x("one resident's list")}x) and the read by id (${x('read one')}x) do not grow with the table: they are index range scans or primary-key lookups, and the list total comes from the trigger-maintained \`facility_resource_counts\` row rather than \`count(*)\`. The last page grows ${x('list last page')}x: to find where page ${count(sizes[1]!.lastPage)} starts, \`pagination.ts\` runs \`SELECT seq ... ORDER BY seq LIMIT 1 OFFSET ${count((sizes[1]!.lastPage - 1) * 50)}\`, which walks that many entries of the covering index \`(facility_id, seq)\` (EXPLAIN: \`SEARCH observations USING COVERING INDEX observations_facility_id_seq_index\`; investigation, 2026-11-22). It is linear in the page number, whatever the index: SQLite cannot skip N index entries without visiting them.`,
    '',
    'Fix (proposal; a contract addition): **keyset pagination**. Answer a `next` cursor with each page (the last row\'s `seq`, opaque to clients) and accept `after=<cursor>`: the query becomes `WHERE facility_id = ? AND seq > ? ORDER BY seq LIMIT 50`, the same index range scan as page 1, whose latency is flat above. The SDK\'s `pages()`/`all()` can follow the cursor without any change for SDK users; `page=` stays for compatibility, with deep pages documented as slow.',
  ];
}

function deliveryAnalysis(results: BenchResults): string[] {
  const runs = results.delivery?.result.runs;
  if (!runs?.length) return [];
  const sqlite = runs.find((r) => r.database === 'SQLite');
  const postgres = runs.find((r) => r.database === 'PostgreSQL');
  return [
    '### Delivery throughput: a claim query that scans the backlog',
    '',
    `${sqlite ? `On SQLite the worker drains ${count(sqlite.drain.deliveriesPerSecond)} deliveries/s` : ''}${postgres ? `, on PostgreSQL ${count(postgres.drain.deliveriesPerSecond)}/s` : ''}, against a target of 1,000/s on SQLite. The latency of a service that keeps up is good${sqlite ? ` (SQLite p50 ${count(sqlite.paced.p50Ms)} ms, p99 ${count(sqlite.paced.p99Ms)} ms)` : ''}; the capacity is not. The CPU profile of the service while it drains (BENCH_CPU_PROF_DIR; investigation, 2026-11-22) puts 56% of busy time in knex + better-sqlite3 (SQLite executing, and a statement prepared for every query), 27% in Node's own code (sockets, the HTTP client with a fresh TCP connection per attempt, timers, events), 7% in garbage collection and 4% in the webhook code itself. Counting the SQL per delivery (knex query events, 2,000 deliveries queued to 8 subscriptions; investigation, 2026-11-22):`,
    '',
    '- every completed attempt woke the worker, which ran a **whole claim transaction for the one free slot**: about 8 statements per delivery in all. **Fixed** (`server/src/webhooks/delivery-worker.ts`): under load, completions wake the claimer once a quarter of the slots are free, so claims come in batches (in a scratch copy this cut claim queries per delivery from 1.0 to 0.14 and SQL time per delivery from 2.2 ms to 0.9 ms);',
    '- the claim starts with `SELECT d.subscription_id, min(d.due_at) ... GROUP BY d.subscription_id` over **every due delivery**: with 2,000 queued it took 1.2 ms, 57% of all SQL time, and it grows with the backlog (the more behind, the slower it catches up).',
    '',
    'Tried and measured, not kept (2026-11-22, this machine): recording the outcomes of all attempts finished in one event-loop turn in one transaction (SQLite drain 530/s against 609/s before, PostgreSQL 466/s against 371/s: within the noise on SQLite), and finding claim candidates by probing each active subscription on a `(subscription_id, status, due_at)` index instead of grouping the due queue (516/s). Neither moved SQLite, so with 2,000 queued neither the commits nor the claim scan is what bounds it; what remains is per statement (knex prepares every statement again, about five per delivery) and per attempt (a new TCP connection). The next steps are statements prepared once for the worker\'s hot path and connections kept alive per vetted address.',
    '',
    'Further proposals, unmeasured: (1) find due subscriptions from the small `webhook_subscriptions` table and probe each one\'s oldest due delivery on an index `(subscription_id, status, due_at)`, so a claim costs the same with 10 or 100,000 queued; (2) record outcomes in batches (one transaction for the attempts finished in the same tick); (3) keep connections alive per vetted address (an agent keyed by host and vetted IP keeps the DNS-rebinding protection that `agent: false` buys today).',
    postgres
      ? `\nOn PostgreSQL the sustained run ${postgres.sustained.emittedEventsPerSecond * postgres.subscriptions < postgres.drain.deliveriesPerSecond ? 'is bounded by emitting' : 'also depends on emitting'}: ${count(postgres.sustained.emittedEventsPerSecond)} events/s at most (x${postgres.subscriptions} deliveries). Each event is its own transaction of about six statements, through the pool the worker also uses, plus a NOTIFY; a durable commit alone costs about 4.8 ms on this machine (\`synchronous_commit=on\`, \`fdatasync\`; the same transaction on a temporary table, 0.8 ms; investigation, 2026-11-22). Emitting in batches, one transaction per batch, would lift it.`
      : '',
  ];
}

function verifierAnalysis(results: BenchResults): string[] {
  const sizes = results.verifier?.result.sizes;
  if (!sizes?.length) return [];
  const r = (bytes: number, name: '@ofctx/verifier verifySignature' | 'standardwebhooks verify') => {
    const s = sizes.find((x) => x.bodyBytes === bytes);
    return s ? ratio(s.perSecond[name], s.perSecond['bare createHmac + timingSafeEqual']) : 'n/a';
  };
  return [
    '### Verifier: the HMAC itself, and nothing much around it',
    '',
    `\`verifySignature\` runs at ${r(1024, '@ofctx/verifier verifySignature')} of a bare \`createHmac\` + \`timingSafeEqual\` at 1 KB and ${r(65536, '@ofctx/verifier verifySignature')} at 64 KB. An earlier version ran at 0.59 at 1 KB: it decoded the hex header with 32 \`parseInt(slice())\` calls and UTF-8-encoded the secret again on every call. It now decodes with \`Buffer.from(hex, 'hex')\` where \`Buffer\` exists (a lookup table elsewhere) and keeps the encoded bytes of the last few secrets (\`verifier/src/signature-header.ts\`, \`signature-check.ts\`). \`verifyDelivery\` also parses and checks the envelope, a cost a receiver pays anyway. \`standardwebhooks\` (${r(1024, 'standardwebhooks verify')} at 1 KB, ${r(65536, 'standardwebhooks verify')} at 64 KB) computes its HMAC in JavaScript (@stablelib/sha256) over a concatenated string: a different scheme, and far slower.`,
  ];
}

function startupAnalysis(results: BenchResults): string[] {
  const s = results.startup?.result.lines;
  if (!s) return [];
  const node = s['node -e 0'].medianMs;
  const build = s['build the bundle (npm start does this first)'].medianMs;
  const ready = s['service: spawn -> /readyz 200'].medianMs;
  return [
    '### Start-up: plain JavaScript, and nothing slow before listen',
    '',
    `\`npm start\` bundles the server's own code with esbuild (${count(build)} ms; dependencies stay external) and runs \`node server/dist/main.js\`: ${count(ready)} ms from spawn to the first 200 from \`/readyz\`, of which ${count(node)} ms is Node itself. Most of the rest is loading the dependencies (knex, openapi-backend and Koa are the largest), migrating (a no-op check here), building the openapi-backend instance from the contract, and compiling the \`/readyz\` validators on the first request. An earlier version took 2-3 s on this machine: it ran the TypeScript sources through tsx (a loader thread and per-file transpiling), parsed the contract with \`yaml\` (435 ms; js-yaml takes 75 ms for the same document and result), let every Ajv instance compile the 2020 meta-schema to check schemas Redocly already lints, loaded koa-body (zod, formidable; 0.2 s) before the first request with a body, and computed the decoy scrypt hash before listening.`,
  ];
}

export function analysis(results: BenchResults): string {
  return [
    '## Analysis',
    '',
    'Each target missed, with the measured cause and what would fix it. Fixes already made are named with the file that holds them; the rest are proposals, some measured in scratch copies outside the repository.',
    '',
    ...listAnalysis(results),
    '',
    ...growthAnalysis(results),
    '',
    ...deliveryAnalysis(results),
    '',
    ...verifierAnalysis(results),
    '',
    ...startupAnalysis(results),
  ].join('\n');
}
