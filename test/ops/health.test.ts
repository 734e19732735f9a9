/**
 * `/health` answers 503 with its reasons while the node cannot do its work, and 200 again
 * once it can: a database it cannot write (here switched to read-only under the running
 * daemon: as root, a file mode would not stop it), and free disk under the configured floor.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, tempDir, type TestServer } from '../support/server.js';
import { sqliteOnly } from '../../src/db/sqlite.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(() => server?.close());

describe('/health', () => {
  it('answers 200, status ok and no reasons on a healthy node', async () => {
    const response = await call('GET', `${server.url}/health`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'ok', reasons: [] });
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 503 naming the database while it cannot be written, and 200 again after', async () => {
    const db = sqliteOnly(server.app.node.db, 'this test');
    db.pragma('query_only = ON');
    try {
      const response = await call('GET', `${server.url}/health`);
      expect(response.status).toBe(503);
      expect(response.body.status).toBe('degraded');
      expect(response.body.reasons).toEqual([expect.stringMatching(/^database not writable: .*readonly/)]);
    } finally {
      db.pragma('query_only = OFF');
    }
    const response = await call('GET', `${server.url}/health`);
    expect(response.status).toBe(200);
    expect(response.body.reasons).toEqual([]);
  });

  it('leaves nothing behind in the database from its write probe', async () => {
    await call('GET', `${server.url}/health`);
    expect(server.app.node.db.prepare("SELECT count(*) AS n FROM meta WHERE key = 'health.write_probe'").get()).toEqual({ n: 0 });
  });

  it('answers 503 naming the floor while free disk is under health.min_free_disk_mb, and 200 on the same folder with a floor under it', async () => {
    const dataDir = tempDir();
    const floored = await startTestServer({ dataDir, config: { 'health.min_free_disk_mb': 1_000_000_000 } });
    try {
      const response = await call('GET', `${floored.url}/health`);
      expect(response.status).toBe(503);
      expect(response.body.reasons).toEqual([expect.stringMatching(/^free disk space \d+ MB is under health.min_free_disk_mb \(1000000000 MB\)$/)]);
    } finally {
      await floored.close();
    }
    const restarted = await startTestServer({ dataDir, demo: false, config: { 'health.min_free_disk_mb': 1 } });
    try {
      expect((await call('GET', `${restarted.url}/health`)).status).toBe(200);
    } finally {
      await restarted.close();
    }
  });
});
