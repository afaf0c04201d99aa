// knex clients of each dialect the service runs on, with no connection: for tests of what
// knex compiles (SQL text and bindings), which needs no database.
import knexFactory, { type Knex } from 'knex';
import { PreparingSqliteClient } from '../../server/src/db/sqlite-client.js';

export function compileOnlyKnexes(): Array<[string, Knex]> {
  return [
    ['PostgreSQL', knexFactory({ client: 'pg' })],
    // The service's SQLite client: it loads the driver for this Node.js (db/sqlite-driver.ts).
    ['SQLite', knexFactory({ client: PreparingSqliteClient as never, useNullAsDefault: true })],
  ];
}
