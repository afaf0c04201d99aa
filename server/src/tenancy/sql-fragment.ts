// A piece of SQL with its bindings, as the visibility rules hand their conditions to the read
// paths' queries.
export interface SqlFragment {
  sql: string;
  bindings: Array<string | number>;
}
