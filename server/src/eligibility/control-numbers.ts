// Interchange control numbers (ISA13, also GS06 and ST02): unique per sender id, as X12 and
// clearinghouses require (a repeated number is refused as a duplicate interchange). One row per
// sender id, advanced by one statement that both databases run atomically, so several instances
// never hand out the same number.
//
// Each process takes them a block at a time (ELIGIBILITY_CONTROL_NUMBER_BLOCK, 32) and hands
// them out in order: one statement per block instead of one per exchange, and no exchange waits
// on the row another took a moment before (every check of a busy month would). So numbers
// increase within an instance, several instances' interchanges interleave, and those left in a block when a
// process stops are never sent. X12.5 asks uniqueness within a time frame the trading partners
// agree on, not order or no gaps (and CORE's real-time exchanges are told apart by PayloadID);
// a block of 1 keeps them increasing across instances, at a statement per exchange.
// After 999,999,999 (nine digits) they start again at 1, as the standard allows once the old
// interchanges are long acknowledged.
import type { Knex } from 'knex';
import { rawRows } from '../db/database.js';

export const MAX_CONTROL_NUMBER = 999_999_999;

/** Takes the next `count` numbers of a sender id (one statement): first..last, all unused before. */
export async function takeControlNumbers(db: Knex, senderId: string, count: number): Promise<{ first: number; last: number }> {
  const rows = rawRows<{ last_number: number | string }>(
    await db.raw(
      `INSERT INTO x12_control_numbers (sender_id, last_number) VALUES (?, ?)
       ON CONFLICT (sender_id) DO UPDATE SET last_number = CASE WHEN x12_control_numbers.last_number > ? THEN ? ELSE x12_control_numbers.last_number + ? END
       RETURNING last_number`,
      [senderId, count, MAX_CONTROL_NUMBER - count, count, count],
    ),
  );
  const last = Number(rows[0]!.last_number);
  return { first: last - count + 1, last };
}

/** A process's control numbers: handed out in order from the block it holds per sender id. */
export class ControlNumbers {
  private readonly blocks = new Map<string, { next: number; last: number }>();
  /** The block being taken per sender id: callers meanwhile wait for it rather than take one each. */
  private readonly taking = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Knex,
    /** Numbers taken from the sender id's row at a time; 1 keeps them increasing across processes. */
    private readonly blockSize: number,
  ) {}

  async next(senderId: string): Promise<number> {
    for (;;) {
      const block = this.blocks.get(senderId);
      if (block && block.next <= block.last) return block.next++;
      let taking = this.taking.get(senderId);
      if (!taking) {
        taking = takeControlNumbers(this.db, senderId, this.blockSize)
          .then(({ first, last }) => void this.blocks.set(senderId, { next: first, last }))
          .finally(() => this.taking.delete(senderId));
        this.taking.set(senderId, taking);
      }
      await taking;
    }
  }
}
