/**
 * `loyaltyd sync now` beside a running store daemon (src/sync/store/round-now.ts): while the
 * node's share of the hub's pushes is taken, the hub refuses the operator's round 429 with a
 * Retry-After. The command waits it out and runs the round again, saying so on stderr; with
 * `--wait 0` it fails at once, as it did before it waited. Real processes on loopback: a hub
 * that takes one push a node at a time, a store daemon, the CLI, and a push of the store's
 * node held in flight by the test until the CLI says it waits.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { BIN, cliEnv } from '../../support/cli.js';
import { Cluster, posLogin, type StoreProcess } from '../../support/cluster.js';
import { heldPush, type HeldRequest } from '../../support/sync-flood.js';
import { createEvent } from '../../support/sync-writes.js';
import { waitFor } from '../../support/wait.js';

/** A push body past what the test sends before holding it, and not JSON: released, the hub answers it 400. */
const HELD_BODY = Buffer.from(`{"pad":"${'x'.repeat(100 * 1024)}`);

let cluster: Cluster;
let store: StoreProcess;
let held: HeldRequest;

beforeAll(async () => {
  cluster = await Cluster.start({
    stores: ['prague'],
    hubEnv: { LOYALTYD_SYNC_LIMITS__PUSHES_PER_NODE: '1', LOYALTYD_SYNC_LIMITS__RETRY_AFTER_SECONDS: '1' },
  });
  store = cluster.store('prague');
  await cluster.waitBootstrapped(store);
}, 60_000);

afterAll(async () => {
  held?.release();
  await cluster?.close();
});

/** `sync now --json` on the store's folder; `onStderr` sees each chunk the command writes there. */
function syncNow(
  extra: string[],
  onStderr: (text: string) => void = () => undefined,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const args = ['sync', 'now', ...store.syncArgs(), ...extra, '--data-dir', store.dataDir, '--json'];
  const child = spawn(process.execPath, [BIN, ...args], { env: cliEnv(store.commandEnv) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    onStderr(stderr);
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

describe('sync now beside the daemon while the node’s pushes are taken', () => {
  it('waits out the hub’s Retry-After and runs the round again, and with --wait 0 fails at once', async () => {
    held = heldPush(cluster.hub.url, store.credentials, HELD_BODY);
    const pos = await posLogin(store);
    const event = await createEvent(store, pos, DEMO_IDS.customerJana, 'sync-now-waits');
    await waitFor('the daemon’s push refused', () => store.peekStatus().last_error_status === 429);

    const once = await syncNow(['--wait', '0']);
    expect(once.code).toBe(1);
    expect(JSON.parse(once.stdout)).toMatchObject({ ok: false, hubStatus: 429, rounds: 1, waited_ms: 0 });
    expect(store.peekStatus().outbox.pending).toBe(1);

    const waiting = syncNow([], (stderr) => {
      if (stderr.includes('running it again')) held.release();
    });
    const { code, stdout, stderr } = await waiting;
    expect(stderr).toMatch(/the hub refused the round \(429: .+\); running it again in \d+ s/);
    expect(code, stderr).toBe(0);
    const outcome = JSON.parse(stdout) as { ok: boolean; rounds: number; waited_ms: number };
    expect(outcome.ok).toBe(true);
    expect(outcome.rounds).toBeGreaterThanOrEqual(2);
    expect(outcome.waited_ms).toBeGreaterThanOrEqual(1000);
    expect((await held.answered).status).toBe(400);

    await waitFor('the store’s outbox empty', () => store.peekStatus().outbox.pending === 0);
    expect(cluster.hub.count('SELECT count(*) AS n FROM events WHERE id = ?', event.id)).toBe(1);
  }, 120_000);
});
