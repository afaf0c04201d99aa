// The test files that cannot touch a database: nothing they import, directly or through
// other modules of the repository, opens one (server/src/db/database.ts, the test database
// helper) or imports a driver (knex, pg, better-sqlite3). `npm test` runs them once, on
// SQLite; the PostgreSQL run leaves them out, since they would only repeat the same work.
// Type-only imports do not count; a file that cannot be resolved counts as touching one.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const OPENS_A_DATABASE = [/server\/src\/db\/database\.ts$/, /test\/support\/database\.ts$/];
const DRIVER_IMPORT = /^\s*import\s+(?!type\b)[^;]*?from\s+['"](knex|pg|better-sqlite3)['"]/m;
const RELATIVE_IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/gm;

/** Test files (`*.test.ts`) under `dir`, relative to `root`. */
export function testFilesUnder(root, dir) {
  const found = [];
  const walk = (at) => {
    for (const name of readdirSync(at)) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.test.ts')) found.push(relative(root, path));
    }
  };
  if (existsSync(join(root, dir))) walk(join(root, dir));
  return found.sort();
}

function resolveImport(from, specifier) {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), base, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** What a module imports (resolved paths), and whether it opens a database itself; read once per module. */
function moduleFacts(file, cache) {
  let facts = cache.get(file);
  if (!facts) {
    const source = readFileSync(file, 'utf8');
    const imports = [...source.matchAll(RELATIVE_IMPORT)].map((match) => resolveImport(file, match[1] ?? match[2]));
    // An import that cannot be resolved counts as one that opens a database.
    const opens = OPENS_A_DATABASE.some((pattern) => pattern.test(file)) || DRIVER_IMPORT.test(source) || imports.includes(undefined);
    facts = { opens, imports: imports.filter(Boolean) };
    cache.set(file, facts);
  }
  return facts;
}

/** Whether `file` or anything it reaches through imports opens a database. */
function touchesDatabase(file, cache) {
  const seen = new Set([file]);
  const queue = [file];
  while (queue.length > 0) {
    const facts = moduleFacts(queue.shift(), cache);
    if (facts.opens) return true;
    for (const next of facts.imports) if (!seen.has(next)) seen.add(next), queue.push(next);
  }
  return false;
}

/** Of `files` (relative to `root`), those that cannot touch a database. */
export function databaseFreeTests(root, files) {
  const cache = new Map();
  return files.filter((file) => !touchesDatabase(resolve(root, file), cache));
}
