// Timestamps as stored: ISO 8601 UTC with milliseconds, which sorts as text on both databases.
export function nowIso(now: number = Date.now()): string {
  return new Date(now).toISOString();
}
