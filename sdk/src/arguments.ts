// Checks of arguments that would otherwise build a wrong request (`{id}` left in a path,
// `/undefined`): callers in plain JavaScript have no type checker to stop them.
/** Rejects ids that would build a wrong path (`undefined`, empty) before any request. */
export function assertId(value: unknown, name: string): asserts value is string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new TypeError(`${name} must be a non-empty string (a UUID), got ${value === '' ? 'an empty string' : typeof value}.`);
  }
}
