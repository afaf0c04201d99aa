// One stop signal for every outbound attempt in flight (webhook deliveries, eligibility
// exchanges): each attempt listens on it while it runs, so a stop aborts them all. Node warns
// of a "possible EventTarget memory leak" past 10 listeners, which a worker passes whenever
// more than 10 attempts are in flight (its concurrency is 32 by default): the signal is told
// how many listeners its worker holds at most, and a leak past that is still reported.
import { setMaxListeners } from 'node:events';

/** An AbortController whose signal may have `listeners` listeners at once (the worker's concurrency) without a warning. */
export function stopSignal(listeners: number): AbortController {
  const controller = new AbortController();
  setMaxListeners(Math.max(listeners, 10), controller.signal);
  return controller;
}
