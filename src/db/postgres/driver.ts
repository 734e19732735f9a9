/**
 * libpq, PostgreSQL's own client library, through the npm package `libpq`: the synchronous
 * calls a `Db` makes block the thread they run on until the server answers, as SQLite's do.
 * It is an optional dependency: it compiles against libpq's headers, so `npm ci` on a machine
 * without them goes on without it, and only a hub asked for PostgreSQL needs it.
 */
import { createRequire } from 'node:module';
import { ConfigError } from '../../core/config.js';

/** The calls of the `libpq` package this engine makes. */
export interface Libpq {
  connectSync(conninfo: string): void;
  finish(): void;
  exec(sql: string): void;
  execParams(sql: string, params: (string | null)[]): void;
  prepare(name: string, sql: string, parameters: number): void;
  execPrepared(name: string, params: (string | null)[]): void;
  resultStatus(): string;
  resultErrorMessage(): string;
  resultErrorFields(): { sqlState?: string; constraintName?: string } | undefined;
  errorMessage(): string;
  ntuples(): number;
  nfields(): number;
  fname(column: number): string;
  ftype(column: number): number;
  getvalue(row: number, column: number): string;
  getisnull(row: number, column: number): boolean;
  cmdTuples(): string;
  transactionStatus(): string;
  serverVersion(): number;
}

/** Raised when a hub is asked for PostgreSQL on a machine where the driver is not built: the CLI exits 2 with it. */
export class DriverMissing extends ConfigError {
  constructor(cause: unknown) {
    super(
      'PostgreSQL needs the npm package libpq, which did not load (' +
        String((cause as Error).message ?? cause).split('\n')[0] +
        "). Install libpq's headers and build it: apt-get install libpq-dev && npm rebuild libpq",
    );
  }
}

let constructor: (new () => Libpq) | undefined;

/** A new, unconnected libpq connection; throws `DriverMissing` when the package cannot load. */
export function newConnection(): Libpq {
  if (!constructor) {
    try {
      constructor = createRequire(import.meta.url)('libpq') as new () => Libpq;
    } catch (error) {
      throw new DriverMissing(error);
    }
  }
  return new constructor();
}
