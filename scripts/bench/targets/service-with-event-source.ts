// The service exactly as main.ts starts it, plus an in-process event source: the system of
// record emitting events through the service's own emitEvent (which also wakes this
// process's delivery worker at once). The delivery benchmark drives it over IPC:
//   -> { type: 'emit', orgId, facilityId, eventType, count, perSecond, maxMs }
//   <- { type: 'emitted', events, ms }
// perSecond 0 emits one after another as fast as the database takes them.
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

async function emit(command: EmitCommand): Promise<EmittedReply> {
  const started = performance.now();
  let events = 0;
  while (events < command.count && performance.now() - started < command.maxMs) {
    if (command.perSecond > 0) {
      const due = started + (events * 1000) / command.perSecond;
      if (due > performance.now()) await sleep(due - performance.now());
    }
    await running.webhooks.emitEvent({
      orgId: command.orgId,
      facilityId: command.facilityId,
      type: command.eventType,
      residentId: crypto.randomUUID(),
      // The receiver measures enqueue-to-arrival from this (milliseconds, same clock).
      occurredAt: new Date().toISOString(),
    });
    events += 1;
  }
  return { type: 'emitted', events, ms: performance.now() - started };
}

process.on('message', (message: EmitCommand) => {
  if (message.type === 'emit') void emit(message).then((reply) => process.send!(reply));
});
process.once('SIGTERM', () => void running.close().then(() => process.exit(0)));
process.stdout.write(`ready ${running.url}\n`);
