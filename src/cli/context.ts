/** What every command shares: config from flags, opening the node, printing results. */
import pino, { type Logger } from 'pino';
import { createApp, type App } from '../app.js';
import { systemClock } from '../clock.js';
import { loadConfig, type Config } from '../config.js';

export interface CommonOptions {
  dataDir?: string;
  config?: string;
  json?: boolean;
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
