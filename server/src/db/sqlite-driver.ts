// Which better-sqlite3 the service loads. 12 and earlier wrap their objects in Node's raw
// ObjectWrap, whose destructor Node.js 24 made register and remove an environment cleanup
// hook: a Statement collected after the environment is gone (at exit, or in a worker thread
// such as the WAL checkpointer's) aborts the process ("Assertion failed: (env) != nullptr" in
// RemoveEnvironmentCleanupHook; seen here on every test worker's exit). 13 is built on
// Node-API (node-addon-api) and ships prebuilt binaries for it, but needs Node.js 22. So:
// 13 (installed as `better-sqlite3-13`) on Node.js 22 and later, 12 on Node.js 20 only, the
// same API on both (docs/development.md, "Node.js lines").
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);

/** The package name of the driver for this Node.js. */
export const SQLITE_DRIVER_PACKAGE = Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3-13' : 'better-sqlite3';

/** The driver's Database constructor. */
export function sqliteDriver(): typeof BetterSqlite3 {
  return require(SQLITE_DRIVER_PACKAGE) as typeof BetterSqlite3;
}

/** Where the driver's entry point is, for a worker thread or child process to load the same one. */
export function sqliteDriverPath(): string {
  return require.resolve(SQLITE_DRIVER_PACKAGE);
}
