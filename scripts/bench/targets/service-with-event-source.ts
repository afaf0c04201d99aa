// The service exactly as main.ts starts it, plus an in-process event source: the system of
// record emitting events through the service's own emitEvent (which also wakes this
// process's delivery worker at once). The delivery benchmark drives it over IPC:
//   -> { type: 'emit', orgId, facilityId, eventType, count, perSecond, maxMs }
//   <- { type: 'emitted', events, ms }
// perSecond 0 emits one after another as fast as the database takes them; perSecond > 0
// starts each event at its time, up to PACED_IN_FLIGHT at once.
import { loadConfig } from '../../../server/src/config/config.js';
import { createLogger } from '../../../server/src/logging/logger.js';
import { startService } from '../../../server/src/service.js';

export interface EmitCommand {
  type: 'emit';
  orgId: string;
  facilityId: string;
  eventType: string;
  /** At most this many events... */
  count: number;
  /** ...and for at most this long. */
  maxMs: number;
  perSecond: number;
}

export interface EmittedReply {
  type: 'emitted';
  events: number;
  ms: number;
}

const config = loadConfig();
const running = await startService(config, { logger: createLogger(config.logLevel) });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Paced emits in flight at once, at most: two writers of a system of record. (16 starved the worker on SQLite, whose one connection each emit holds for its transaction.) */
const PACED_IN_FLIGHT = 2;

async function emit(command: EmitCommand): Promise<EmittedReply> {
  const started = performance.now();
  const emitOne = () =>
    running.webhooks.emitEvent({
      orgId: command.orgId,
      facilityId: command.facilityId,
      type: command.eventType,
      residentId: crypto.randomUUID(),
      // The receiver measures enqueue-to-arrival from this (milliseconds, same clock).
      occurredAt: new Date().toISOString(),
    });
  let events = 0;
  const inFlight = new Set<Promise<unknown>>();
  while (events < command.count && performance.now() - started < command.maxMs) {
    if (command.perSecond > 0) {
      // Each event starts at its time, whether or not the one before has committed (so the
      // offered rate is the asked one even where one emit takes longer than the interval).
      const due = started + (events * 1000) / command.perSecond;
      if (due > performance.now()) await sleep(due - performance.now());
      if (inFlight.size >= PACED_IN_FLIGHT) await Promise.race(inFlight);
      const emitting = emitOne().finally(() => inFlight.delete(emitting));
      inFlight.add(emitting);
    } else {
      await emitOne();
    }
    events += 1;
  }
  await Promise.all(inFlight);
  return { type: 'emitted', events, ms: performance.now() - started };
}

process.on('message', (message: EmitCommand) => {
  if (message.type === 'emit') void emit(message).then((reply) => process.send!(reply));
});
process.once('SIGTERM', () => void running.close().then(() => process.exit(0)));
process.stdout.write(`ready ${running.url}\n`);
