// Optional staleness check on X-Service-Timestamp. The header is NOT covered by the signature
// (ofctx signs the body only, and the body is identical on every retry), so whoever can replay
// a captured delivery can also set a fresh timestamp: this check only drops stale or delayed
// attempts. The real defence against replays is de-duplication on the signed delivery_id.
import { InvalidTimestampError, TimestampOutsideToleranceError } from './errors.js';

export interface TimestampToleranceOptions {
  /**
   * Reject attempts whose timestamp is more than this many seconds away from now. With a
   * (signed) webhook-timestamp header it is always checked, 300 s when undefined; otherwise
   * X-Service-Timestamp is checked, and only when this is set (that timestamp is unsigned:
   * see the README on replays).
   */
  toleranceSeconds?: number;
  /** The clock, in milliseconds since the epoch. Defaults to Date.now; inject one in tests. */
  now?: () => number;
}

/** Throws InvalidTimestampError or TimestampOutsideToleranceError when the check is on and fails. */
export function assertTimestampWithinTolerance(
  timestampHeader: string | string[] | undefined,
  options: TimestampToleranceOptions,
  headerName = 'X-Service-Timestamp',
): void {
  const { toleranceSeconds, now = Date.now } = options;
  if (toleranceSeconds === undefined) return;
  if (typeof toleranceSeconds !== 'number' || !Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    throw new TypeError(`toleranceSeconds must be a finite number >= 0, got ${String(toleranceSeconds)}.`);
  }
  if (typeof timestampHeader !== 'string' || !/^\d{1,12}$/.test(timestampHeader.trim())) {
    throw new InvalidTimestampError(
      timestampHeader === undefined
        ? `The ${headerName} header is missing, and toleranceSeconds asks for it to be checked.`
        : `${headerName} must be one value: unix time in whole seconds.`,
    );
  }
  const timestamp = Number(timestampHeader.trim());
  const nowSeconds = Math.floor(now() / 1000);
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) {
    throw new TimestampOutsideToleranceError(timestamp, nowSeconds, toleranceSeconds, headerName);
  }
}
