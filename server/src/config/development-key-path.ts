// Where the development key of a SQLite database lives (without WEBHOOK_ENCRYPTION_KEY): beside
// the database file. The webhook key loader writes it there; an online backup copies it along.

/** The development key file of a SQLite database file. */
export function developmentKeyPath(databaseFile: string): string {
  return `${databaseFile}.webhook-key`;
}
