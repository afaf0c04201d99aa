// Validation of NDJSON lines off the main thread (fhir-validator-worker.ts), one worker per
// process, started on first use and never keeping the process alive. If the worker cannot
// start or dies, validation falls back to this thread: slower, never wrong.
import { Worker } from 'node:worker_threads';
import type { ChangeIssue, IngestibleType } from './change-set.js';
import { fhirIssues } from './fhir-validator.js';

type Pending = { resolve: (issues: Array<ChangeIssue | null>) => void; reject: (error: Error) => void };

let worker: Worker | undefined;
let broken = false;
let nextId = 0;
const pending = new Map<number, Pending>();

function newWorker(): Worker {
  // `npm start` runs the esbuild bundle, which builds the worker beside main.js and ops.js
  // (scripts/build-server.mjs). Under tsx (tests, development) the sources are .ts, and a
  // worker does not inherit the tsx loader: it registers it first.
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./fhir-validator-worker.js', import.meta.url));
  const tsx = import.meta.resolve('tsx/esm/api');
  const source = new URL('./fhir-validator-worker.ts', import.meta.url).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(source)}); })`, { eval: true });
}

function started(): Worker | undefined {
  if (broken) return undefined;
  if (worker) return worker;
  try {
    worker = newWorker();
  } catch {
    broken = true;
    return undefined;
  }
  worker.unref();
  worker.on('message', ({ id, issues }: { id: number; issues: Array<ChangeIssue | null> }) => {
    pending.get(id)?.resolve(issues);
    pending.delete(id);
  });
  const fail = (error: Error) => {
    broken = true;
    worker = undefined;
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the FHIR validation worker exited with ${code}`)));
  return worker;
}

async function inThisThread(texts: string[]): Promise<Array<ChangeIssue | null>> {
  const issues: Array<ChangeIssue | null> = [];
  for (const text of texts) issues.push((await fhirIssues(JSON.parse(text) as { resourceType: IngestibleType }))[0] ?? null);
  return issues;
}

/** Each line's first FHIR R4 issue, or null. The lines must parse as JSON objects. */
export async function validateLines(texts: string[]): Promise<Array<ChangeIssue | null>> {
  if (texts.length === 0) return [];
  const target = started();
  if (!target) return inThisThread(texts);
  const id = ++nextId;
  try {
    return await new Promise<Array<ChangeIssue | null>>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      target.ref();
      target.postMessage({ id, texts });
    }).finally(() => {
      if (pending.size === 0) worker?.unref();
    });
  } catch {
    return inThisThread(texts);
  }
}

/** Starts the worker and loads its definitions now (benchmarks and the CLI warm up before timing). */
export async function warmValidationWorker(): Promise<void> {
  await validateLines([JSON.stringify({ resourceType: 'Patient' })]);
}
