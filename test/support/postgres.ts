/**
 * A PostgreSQL database of a test's own, in the run's cluster (test/support/postgres-setup.ts):
 * created from template0 with the C collation, so text sorts by bytes as in SQLite, and
 * dropped when the test is done with it, sessions still open or not.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { postgresAvailable } from './postgres-cluster.js';

export interface PostgresDatabase {
  /** A superuser's connection to the new database. */
  url: string;
  /** Drops the database, ending any session still connected to it. */
  drop(): Promise<void>;
  /** Drops it and creates it again empty, under the same name. */
  recreate(): Promise<void>;
}

/** The superuser's connection to the run's cluster; throws, saying why, when the run has none. */
export function postgresClusterUrl(): string {
  const url = inject('postgresUrl');
  if (url === undefined)
    throw new Error(`this run has no PostgreSQL cluster: ${postgresAvailable() ?? 'its global setup (vitest.config.ts) did not run'}`);
  return url;
}

export async function freshPostgresDatabase(): Promise<PostgresDatabase> {
  const clusterUrl = postgresClusterUrl();
  const name = `loyaltyd_test_${randomBytes(6).toString('hex')}`;
  const create = () => asSuperuser(clusterUrl, `CREATE DATABASE "${name}" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
  const drop = () => asSuperuser(clusterUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await create();
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop,
    recreate: async () => {
      await drop();
      await create();
    },
  };
}

async function asSuperuser(clusterUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: clusterUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
