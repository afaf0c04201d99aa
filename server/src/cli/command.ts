// What an ops CLI command is: its words, options, and a run that returns one result object.
import type { ParseArgsConfig } from 'node:util';
import type { Knex } from 'knex';
import type { Config } from '../config/config.js';
import { isUuid } from '../db/uuid.js';

export interface CliContext {
  config: Config;
  /** Opened (and migrated) on first use. */
  db(): Promise<Knex>;
  /** Progress for humans: written to stderr on a terminal only. */
  progress(text: string): void;
  /** stderr is a terminal and --json was not given: progress bars may be drawn. */
  interactive: boolean;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

export interface Command {
  /** The command's words, such as `client create`. */
  name: string;
  summary: string;
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** How many arguments: exactly n, or [least, most]. */
  positionals?: number | [number, number];
  run(args: ParsedArgs, cli: CliContext): Promise<unknown>;
  /** Human output; JSON is printed when absent or with --json. */
  format?(result: any): string;
}

/** A mistake in how the command was called: exit 2 with the usage. */
export class UsageError extends Error {}

export function required(args: ParsedArgs, name: string): string {
  const value = args.values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

/** The longest name an organization, facility or credential may have (their columns' size). */
export const MAX_NAME_LENGTH = 200;

/** A required name of 1 to MAX_NAME_LENGTH characters. */
export function nameOption(args: ParsedArgs, name: string): string {
  const value = required(args, name);
  if (value.length > MAX_NAME_LENGTH) throw new UsageError(`--${name} is at most ${MAX_NAME_LENGTH} characters, got ${value.length}`);
  return value;
}

export function uuidOption(args: ParsedArgs, name: string): string {
  const value = required(args, name);
  if (!isUuid(value)) throw new UsageError(`--${name} must be a UUID, got "${value}"`);
  return value.toLowerCase();
}

export function uuidList(args: ParsedArgs, name: string): string[] {
  const list = required(args, name).split(',').map((s) => s.trim()).filter(Boolean);
  const bad = list.filter((id) => !isUuid(id));
  if (bad.length || list.length === 0) throw new UsageError(`--${name} must be comma-separated UUIDs, got "${bad.join(',') || list.join(',')}"`);
  return list.map((id) => id.toLowerCase());
}

export function positiveInteger(args: ParsedArgs, name: string, fallback?: number): number {
  const raw = args.values[name];
  if (raw === undefined && fallback !== undefined) return fallback;
  const value = Number(raw);
  if (typeof raw !== 'string' || !Number.isInteger(value) || value < 1) throw new UsageError(`--${name} must be a positive integer`);
  return value;
}
