// Interchange control numbers (ISA13, also GS06 and ST02): unique and increasing per sender id,
// as X12 and clearinghouses require (a repeated number is refused as a duplicate interchange).
// One row per sender id, advanced by one statement that both databases run atomically, so
// several instances never hand out the same number. After 999,999,999 (nine digits) it wraps
// to 1, as the standard allows once the old interchanges are long acknowledged.
import type { Knex } from 'knex';
import { rawRows } from '../db/database.js';

export const MAX_CONTROL_NUMBER = 999_999_999;

export async function nextControlNumber(db: Knex, senderId: string): Promise<number> {
  const rows = rawRows<{ last_number: number | string }>(
    await db.raw(
      `INSERT INTO x12_control_numbers (sender_id, last_number) VALUES (?, 1)
       ON CONFLICT (sender_id) DO UPDATE SET last_number = CASE WHEN x12_control_numbers.last_number >= ? THEN 1 ELSE x12_control_numbers.last_number + 1 END
       RETURNING last_number`,
      [senderId, MAX_CONTROL_NUMBER],
    ),
  );
  return Number(rows[0]!.last_number);
}
