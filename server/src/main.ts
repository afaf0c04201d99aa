// `npm start`: migrate, listen on PORT, stop gracefully on SIGTERM/SIGINT.
import { loadConfig } from './config/config.js';
import { createLogger } from './logging/logger.js';
import { startService } from './service.js';

const config = loadConfig();
const logger = createLogger(config.logLevel);
const database = config.databaseUrl.startsWith('sqlite:') ? config.databaseUrl : 'postgres';

try {
  const service = await startService(config, { logger });
  logger.info({ url: service.url, database }, 'ofctx integration API listening');
  const stop = (signal: string) => {
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      logger.error('shutdown took over 25 s; exiting');
      process.exit(1);
    }, 25_000);
    timer.unref();
    service.close().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: Error) => {
        logger.error({ err: error.message }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
} catch (error) {
  logger.fatal({ err: (error as Error).message, database }, 'could not start');
  process.exit(1);
}
