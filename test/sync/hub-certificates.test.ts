/**
 * A store reaches its hub over https unless the hub is on loopback, and trusts only the CA its
 * config names (`hub.ca_file`) or, without one, the system's: the sync tests' hubs serve the
 * test run's certificate (test/support/test-pki.ts), which no system trusts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRound } from '../../src/sync/store/agent.js';
import { createStoreSync } from '../../src/root/store.js';
import type { SyncParts } from '../../src/sync/store/sync-parts.js';
import { makePki } from '../support/certificates.js';
import { runCli } from '../support/cli.js';
import { startTestServer, TestClock, type TestServer } from '../support/server.js';
import { tempFolders } from '../support/temp-folders.js';
import { testPki } from '../support/test-pki.js';

const { newFolder, removeFolders } = tempFolders('loyaltyd-hub-certificates-');
const opened: { close(): Promise<void> }[] = [];
const clock = new TestClock();
let hub: TestServer;

beforeAll(async () => {
  hub = await startTestServer({ clock, config: { mode: 'hub' } });
  opened.push(hub);
});

afterAll(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
  removeFolders();
});

/** A new store node of the hub, its config beside the hub's URL and node credentials given by `config`. */
async function storeOf(name: string, config: Record<string, unknown>): Promise<{ store: TestServer; sync: SyncParts }> {
  const credentials = hub.app.services.nodes.add(name);
  const store = await startTestServer({
    demo: false,
    clock,
    config: { 'hub.url': hub.url, 'node.name': credentials.node_name, 'node.secret': credentials.node_secret, ...config },
  });
  opened.push(store);
  const sync = createStoreSync(store.app.node, store.config, clock.now)!;
  opened.push(sync.client);
  return { store, sync };
}

const customers = (store: TestServer) => (store.app.node.db.prepare('SELECT count(*) AS n FROM customers').get() as { n: number }).n;

describe('the hub a store syncs with', () => {
  it('`serve --hub-url http://hub.invalid:8443` exits 2 naming hub.url before it opens its folder or calls the hub', async () => {
    const dataDir = join(newFolder(), 'never-made');
    const result = await runCli([
      'serve',
      '--port',
      '0',
      '--hub-url',
      'http://hub.invalid:8443',
      '--node-name',
      'n',
      '--node-secret',
      's',
      '--data-dir',
      dataDir,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/config key hub\.url: must be https:\/\/ unless the hub is on loopback/);
    expect(result.stdout).not.toContain('serving');
    // The config was refused before the data folder was made, the first thing serve does after it.
    expect(existsSync(dataDir)).toBe(false);
  });

  it('`sync now` and LOYALTYD_HUB_URL are refused the same way; a loopback http hub is taken', async () => {
    const viaSync = await runCli([
      'sync',
      'now',
      '--hub-url',
      'http://10.1.2.3:8443',
      '--node-name',
      'n',
      '--node-secret',
      's',
      '--data-dir',
      newFolder(),
    ]);
    expect(viaSync.code).toBe(2);
    expect(viaSync.stderr).toContain('hub.url');
    const viaEnv = await runCli(['serve', '--port', '0', '--data-dir', newFolder()], { LOYALTYD_HUB_URL: 'http://hub.example.com' });
    expect(viaEnv.code).toBe(2);
    expect(viaEnv.stderr).toContain('hub.url');
    // On loopback, plain http passes hub.url and the missing node credentials are what stop it.
    const loopback = await runCli(['serve', '--port', '0', '--hub-url', 'http://localhost:9', '--data-dir', newFolder()]);
    expect(loopback.code).toBe(2);
    expect(loopback.stderr).not.toContain('must be https://');
    expect(loopback.stderr).toContain('node.name');
  });

  it('`serve` with a hub.ca_file it cannot read exits 2 naming hub.ca_file', async () => {
    const missing = join(newFolder(), 'no-such-ca.crt');
    const result = await runCli(
      ['serve', '--port', '0', '--hub-url', 'https://127.0.0.1:9', '--node-name', 'n', '--node-secret', 's', '--data-dir', newFolder()],
      {
        LOYALTYD_HUB_CA_FILE: missing,
      },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`config key hub.ca_file: cannot read ${missing}`);
    expect(result.stdout).not.toContain('serving');
  });

  it('a store with hub.ca_file naming the CA that signed the hub bootstraps over https', async () => {
    expect(hub.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const { store, sync } = await storeOf('store-trusting', { 'hub.ca_file': testPki().caCert });
    expect(await runRound(sync, clock.now)).toMatchObject({ ok: true, bootstrapped: true });
    expect(customers(store)).toBeGreaterThan(0);
  });

  it('a store trusting another CA refuses the hub: a sync error naming the certificate, and nothing of the hub applied', async () => {
    const otherCa = makePki(newFolder()).caCert;
    expect(readFileSync(otherCa, 'utf8')).not.toBe(readFileSync(testPki().caCert, 'utf8'));
    const { store, sync } = await storeOf('store-other-ca', { 'hub.ca_file': otherCa });
    const outcome = await runRound(sync, clock.now);
    expect(outcome).toMatchObject({ ok: false, bootstrapped: false, pulled: 0 });
    expect(outcome.error).toMatch(/hub unreachable: .*certificate/i);
    expect(customers(store)).toBe(0);
    expect(sync.state.get('cursor')).toBeUndefined();
  });

  it('a store with no hub.ca_file trusts the system CAs alone, which never signed the test run’s hub', async () => {
    const { store, sync } = await storeOf('store-system-cas', { 'hub.ca_file': undefined });
    expect(store.config.hub.ca_file).toBeUndefined();
    const outcome = await runRound(sync, clock.now);
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toMatch(/hub unreachable: .*certificate/i);
    expect(customers(store)).toBe(0);
  });
});
