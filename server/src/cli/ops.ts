// `npm run -s ops -- <command>`: the operators' CLI. It reads DATABASE_URL like the server.
// With --json it prints exactly one JSON object on stdout and nothing else; errors go to
// stderr with a non-zero exit (2 for a usage mistake, 1 for a failure).
import { parseArgs } from 'node:util';
import type { Knex } from 'knex';
import { loadConfig } from '../config/config.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { UsageError, type CliContext, type Command } from './command.js';
import { commands } from './commands/index.js';

function help(): string {
  return ['usage: npm run -s ops -- <command> [options]', '', ...commands.map((c) => `  ${c.usage.padEnd(70)}\n      ${c.summary}`), '', 'DATABASE_URL selects the database (default sqlite:./data/ofctx.db).'].join('\n');
}

/** Commands are named by one or two words (`seed`, `client create`); the longest match wins. */
function findCommand(argv: string[]): { command: Command; rest: string[] } | undefined {
  for (const length of [2, 1]) {
    const command = commands.find((c) => c.name === argv.slice(0, length).join(' '));
    if (command) return { command, rest: argv.slice(length) };
  }
  return undefined;
}

export async function runCli(argv: string[], env = process.env): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help') {
    process.stdout.write(help() + '\n');
    return argv.length === 0 ? 2 : 0;
  }
  const found = findCommand(argv);
  if (!found) {
    process.stderr.write(`unknown command "${argv.slice(0, 2).join(' ')}"\n\n${help()}\n`);
    return 2;
  }
  const { command, rest } = found;
  let db: Knex | undefined;
  try {
    const parsed = parseArgs({ args: rest, options: { ...command.options, json: { type: 'boolean' }, help: { type: 'boolean' } }, allowPositionals: true, strict: true });
    if (parsed.values.help) {
      process.stdout.write(`usage: npm run -s ops -- ${command.usage}\n${command.summary}\n`);
      return 0;
    }
    const [least, most] = Array.isArray(command.positionals) ? command.positionals : [command.positionals ?? 0, command.positionals ?? 0];
    if (parsed.positionals.length < least || parsed.positionals.length > most) {
      throw new UsageError(`expected ${least === most ? least : `${least} to ${most}`} argument(s), got ${parsed.positionals.length}`);
    }
    const config = loadConfig(env);
    const cli: CliContext = {
      config,
      async db() {
        if (!db) {
          db = openDatabase(config.databaseUrl);
          await migrateToLatest(db);
        }
        return db;
      },
      progress(text) {
        if (process.stderr.isTTY && !parsed.values.json) process.stderr.write(text);
      },
      interactive: Boolean(process.stderr.isTTY && !parsed.values.json),
    };
    const result = await command.run({ values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals }, cli);
    const text = parsed.values.json || !command.format ? JSON.stringify(result, null, parsed.values.json ? 0 : 2) : command.format(result);
    process.stdout.write(text + '\n');
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`error: ${(error as Error).message}\nusage: npm run -s ops -- ${command.usage}\n`);
      return 2;
    }
    process.stderr.write(`error: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await db?.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await runCli(process.argv.slice(2));
}
