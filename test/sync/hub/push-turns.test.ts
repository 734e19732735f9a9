/**
 * The hub applies a push a turn of its event loop at a time (src/sync/hub/pushes-in-turns.ts),
 * a real hub process on loopback at `sync_limits.push_turn_ms` 0 (a command a turn) and a store
 * node in the test's process pushing 500 queued commands in one push: a read asked once part of
 * the push is committed is answered before the rest is; and a hub killed between turns keeps
 * what it committed, and the store's next push is applied once, the committed part answered
 * from its results.
 */
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/core/clock.js';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { basePath } from '../../../src/http/interfaces.js';
import { databaseFile, openNode, type Node } from '../../../src/root/node.js';
import { createStoreSync } from '../../../src/root/store.js';
import { runRound, type RoundOutcome } from '../../../src/sync/store/agent.js';
import { addNode, demoBearer, demoHubFolder, freePort, startHub, storeConfig, type ServerProcess } from '../../support/cluster.js';
import { queueEvents } from '../../support/queued-events.js';
import { tempDir } from '../../support/server.js';
import { waitFor } from '../../support/wait.js';

/** A store's batch at most (src/sync/protocol/protocol.ts): one push. */
const COMMANDS = 500;
const HUB_ENV = { LOYALTYD_SYNC_LIMITS__PUSH_TURN_MS: '0' };

let hubDir: string;
let storeDir: string;
let port: number;
let hub: ServerProcess;
let node: Node;
let sync: NonNullable<ReturnType<typeof createStoreSync>>;

beforeAll(async () => {
  hubDir = tempDir();
  storeDir = tempDir();
  demoHubFolder(hubDir);
  const credentials = addNode(hubDir, 'turns-store');
  port = await freePort();
  hub = await startHub(hubDir, HUB_ENV, port);
  const config = storeConfig(storeDir, hub.url, credentials);
  node = openNode(config, systemClock);
  sync = createStoreSync(node, config, systemClock)!;
  expect(await runRound(sync, systemClock)).toMatchObject({ ok: true, bootstrapped: true });
}, 60_000);

afterAll(async () => {
  await sync?.client.close();
  node?.close();
  await hub?.stop();
  rmSync(hubDir, { recursive: true, force: true });
  rmSync(storeDir, { recursive: true, force: true });
});

/** The hub's events with external ids of `prefix`, read from its file beside it. */
function hubEvents(prefix: string): { applied: number; distinct: number } {
  const db = new Database(databaseFile(hubDir), { readonly: true });
  try {
    return db
      .prepare<[string], { applied: number; distinct: number }>(
        'SELECT count(*) AS applied, count(DISTINCT external_id) AS "distinct" FROM events WHERE external_id LIKE ?',
      )
      .get(`${prefix}-%`)!;
  } finally {
    db.close();
  }
}

/** Waits until the hub has committed part of the push of `prefix`'s events, not all of it; the number committed. */
function partCommitted(prefix: string): Promise<number> {
  return waitFor(
    `part of the push of ${prefix} committed at the hub, not all of it`,
    () => {
      const { applied } = hubEvents(prefix);
      return applied > 0 && applied < COMMANDS ? applied : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 1 },
  );
}

describe('a push applied in turns', () => {
  it('gives way to a read asked while it is applied', async () => {
    const bearer = await demoBearer(hub.url);
    queueEvents(node, COMMANDS, 'turns-a');
    const round = runRound(sync, systemClock);
    await partCommitted('turns-a');
    const read = await fetch(`${hub.url}${basePath('enterprise')}/customers/${DEMO_IDS.customerJana}`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(read.status).toBe(200);
    expect(hubEvents('turns-a').applied).toBeLessThan(COMMANDS);
    expect(await round).toMatchObject({ ok: true, pushed: COMMANDS, rejected: 0, held: 0 });
    expect(hubEvents('turns-a')).toEqual({ applied: COMMANDS, distinct: COMMANDS });
  });

  it('keeps the turns a hub killed between them committed, and applies the rest once', async () => {
    queueEvents(node, COMMANDS, 'turns-b');
    const cut = runRound(sync, systemClock);
    const committed = await partCommitted('turns-b');
    process.kill(hub.pid, 'SIGKILL');
    const outcome: RoundOutcome = await cut;
    expect(outcome.ok).toBe(false);
    expect(hubEvents('turns-b').applied).toBeGreaterThanOrEqual(committed);

    hub = await startHub(hubDir, HUB_ENV, port);
    expect(await runRound(sync, systemClock)).toMatchObject({ ok: true, pushed: COMMANDS, rejected: 0, held: 0 });
    expect(hubEvents('turns-b')).toEqual({ applied: COMMANDS, distinct: COMMANDS });
    const pending = node.db.prepare<[], number>("SELECT count(*) FROM outbox WHERE status = 'pending'").pluck().get();
    expect(pending).toBe(0);
  });
});
