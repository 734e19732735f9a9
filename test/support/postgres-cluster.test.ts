import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { freshPostgresDatabase, postgresClusterUrl, type PostgresDatabase } from './postgres.js';

async function queryOne<Row>(url: string, sql: string, values: unknown[] = []): Promise<Row> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(sql, values);
    return rows[0] as Row;
  } finally {
    await client.end();
  }
}

const databaseExists = async (name: string): Promise<boolean> =>
  (await queryOne<{ found: boolean }>(postgresClusterUrl(), 'SELECT count(*) = 1 AS found FROM pg_database WHERE datname = $1', [name])).found;

describe("the run's PostgreSQL cluster", () => {
  const databases: PostgresDatabase[] = [];
  const fresh = async () => {
    const database = await freshPostgresDatabase();
    databases.push(database);
    return database;
  };
  afterEach(async () => {
    for (const database of databases.splice(0)) await database.drop();
  });

  it('answers a query on the URL the global setup provides', async () => {
    expect(await queryOne(postgresClusterUrl(), 'SELECT 1 AS one')).toEqual({ one: 1 });
  });

  it('gives a fresh database the C collation, so text compares by bytes', async () => {
    const { url } = await fresh();
    expect(await queryOne(url, 'SELECT datcollate, datctype FROM pg_database WHERE datname = current_database()')).toEqual({
      datcollate: 'C',
      datctype: 'C',
    });
    // 'a' is 0x61 and 'B' 0x42; a linguistic collation would put 'a' first.
    expect(await queryOne(url, "SELECT 'a' < 'B' AS less")).toEqual({ less: false });
  });

  it('runs the server as a user other than root', async () => {
    const { url } = await fresh();
    const { dataDirectory } = await queryOne<{ dataDirectory: string }>(url, 'SELECT current_setting(\'data_directory\') AS "dataDirectory"');
    expect(statSync(dataDirectory).uid).not.toBe(0);
    expect(statSync(dirname(dataDirectory)).uid).not.toBe(0);
  });

  it('drop() removes the database, ending a session still connected to it', async () => {
    const database = await freshPostgresDatabase();
    const name = new URL(database.url).pathname.slice(1);
    const session = new pg.Client({ connectionString: database.url });
    // The server ends the session (57P01), then the socket closes: pg reports both as errors.
    const sessionEnded = new Promise<Error>((resolve) => session.on('error', resolve));
    await session.connect();
    expect(await databaseExists(name)).toBe(true);

    await database.drop();

    expect(await databaseExists(name)).toBe(false);
    expect(await sessionEnded).toMatchObject({ code: '57P01' });
    await expect(queryOne(database.url, 'SELECT 1')).rejects.toMatchObject({ code: '3D000' });
    await session.end().catch(() => {});
  });
});
