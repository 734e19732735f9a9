/** What every command shares: config from flags, opening the node, printing results. */
import { InvalidArgumentError, type Command } from 'commander';
import pino, { type Logger } from 'pino';
import { createApp, type App } from '../root/app.js';
import { systemClock } from '../core/clock.js';
import { loadConfig, type Config } from '../core/config.js';

export interface CommonOptions {
  dataDir?: string;
  config?: string;
  json?: boolean;
}

/** The options every command on a data folder takes: the folder, a config file, JSON output. */
export function commonOptions(command: Command): Command {
  return command
    .option('--data-dir <dir>', 'data folder (default ./data, or LOYALTYD_DATA_DIR)')
    .option('--config <file>', 'JSON config file')
    .option('--json', 'print the result as JSON');
}

export function configFrom(options: CommonOptions, overrides: Record<string, unknown> = {}): Config {
  return loadConfig({
    file: options.config,
    env: process.env,
    overrides: { data_dir: options.dataDir, ...overrides },
  });
}

export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

/** Opens the node of the data folder for one command and closes it afterwards. */
export async function withApp<T>(config: Config, work: (app: App) => Promise<T> | T): Promise<T> {
  const app = createApp({ config, clock: systemClock, log: silentLogger() });
  try {
    return await work(app);
  } finally {
    app.close();
  }
}

/** Prints data as JSON with `--json`, else as aligned `key: value` lines. */
export function print(data: Record<string, unknown>, json: boolean | undefined): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(data)}\n`);
    return;
  }
  const width = Math.max(...Object.keys(data).map((key) => key.length));
  for (const [key, value] of Object.entries(data)) {
    process.stdout.write(`${key.padEnd(width)}  ${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
  }
}

/** Prints rows as a table under its title, a column per key of the first row, `-` for none; `title  none` without rows. */
export function printTable(title: string, rows: Record<string, unknown>[]): void {
  const [first] = rows;
  if (!first) {
    process.stdout.write(`${title}  none\n`);
    return;
  }
  const columns = Object.keys(first);
  const cells = rows.map((row) => columns.map((column) => (row[column] === null || row[column] === undefined ? '-' : String(row[column]))));
  const widths = columns.map((column, index) => Math.max(column.length, ...cells.map((line) => line[index]!.length)));
  const line = (values: string[]) => `  ${values.map((value, index) => value.padEnd(widths[index]!)).join('  ')}`.trimEnd();
  process.stdout.write(`${title}\n${[line(columns), ...cells.map(line)].join('\n')}\n`);
}

/** Commander's parser of an option that takes a whole number of 1 or more. */
export function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('a whole number of 1 or more');
  return number;
}

/** Commander's parser of an option that takes a whole number of 0 or more. */
export function wholeNumber(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw new InvalidArgumentError('a whole number of 0 or more');
  return number;
}
