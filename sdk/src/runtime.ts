// The clock, timer and randomness the client uses, in one replaceable object so tests can
// control time (token expiry, back-off waits) without waiting for it. Not exported from
// the package: callers use createClient, which takes the system runtime.
import { sleep } from './retry.js';

export interface Runtime {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Waits `ms`, rejecting with the signal's reason if it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A number in [0, 1), for back-off jitter. */
  random(): number;
}

export const systemRuntime: Runtime = {
  now: () => Date.now(),
  sleep,
  random: () => Math.random(),
};
