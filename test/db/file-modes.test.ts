/**
 * What the daemon writes is its own, whatever the umask it was started under: the database
 * folder and its files, the node's key, spooled mail and backups.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupDatabase, replaceDatabase } from '../../src/db/backup.js';
import { demoCredentials } from '../../src/demo/demo.js';
import { databaseFile } from '../../src/root/node.js';
import { call, demoToken, startTestServer, tempDir, type TestServer } from '../support/server.js';
import { sqliteOnly } from '../../src/db/sqlite.js';

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

const root = tempDir('loyaltyd-modes-');
let server: TestServer;
let umask: number;

beforeAll(async () => {
  umask = process.umask(0);
  server = await startTestServer({ dataDir: join(root, 'data') });
});
afterAll(async () => {
  process.umask(umask);
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

describe('under umask 0', () => {
  it('the data folder is 0700; the database, its WAL and shared-memory files and the node key are 0600', () => {
    expect(modeOf(server.dataDir)).toBe('700');
    const database = databaseFile(server.dataDir);
    for (const file of [database, `${database}-wal`, `${database}-shm`, join(server.dataDir, 'auth-code.key')])
      expect([file, modeOf(file)]).toEqual([file, '600']);
  });

  it('a spooled mail is 0600 in a 0700 spool folder', async () => {
    const token = await demoToken(server);
    const response = await call('POST', `${server.api('customer')}/tokens/${token.tokenId}/actions/send-password-setup-email`, {
      headers: token.headers,
      body: { email: demoCredentials.customer_email },
    });
    expect(response.status).toBe(204);
    const spool = join(server.dataDir, 'mail-spool');
    expect(modeOf(spool)).toBe('700');
    const mails = readdirSync(spool);
    expect(mails).toHaveLength(1);
    expect(modeOf(join(spool, mails[0]!))).toBe('600');
  });

  it('a backup is 0600, and so is a database restored from it in a new folder, which is 0700', async () => {
    const backup = join(root, 'backup.sqlite');
    await backupDatabase(sqliteOnly(server.app.node.db, 'this test'), backup);
    expect(modeOf(backup)).toBe('600');
    const restored = join(root, 'restored', 'loyaltyd.sqlite');
    await replaceDatabase(backup, restored, join(root, 'restored', 'aside.sqlite'));
    expect(modeOf(restored)).toBe('600');
    expect(modeOf(join(root, 'restored'))).toBe('700');
  });
});
