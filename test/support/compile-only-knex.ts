// knex clients of each dialect the service runs on, with no connection: for tests of what
// knex compiles (SQL text and bindings), which needs no database.
import knexFactory, { type Knex } from 'knex';

export function compileOnlyKnexes(): Array<[string, Knex]> {
  return [
    ['PostgreSQL', knexFactory({ client: 'pg' })],
    ['SQLite', knexFactory({ client: 'better-sqlite3', useNullAsDefault: true })],
  ];
}
