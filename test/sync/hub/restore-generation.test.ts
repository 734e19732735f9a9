/**
 * A store bootstraps once from a hub restored from a backup that lost commands it had
 * acknowledged (src/sync/store/replay.ts), whichever way it learns of the restore: a store with
 * nothing pending learns it from the feed's new identity at its pull, one with commands pending
 * from the sequence gap the hub answers its push. Either way its next commands are applied at the
 * next round, without a second bootstrap of the whole chain. A real hub process on loopback, a
 * store node in the test's process.
 */
import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/core/clock.js';
import { openNode, type Node } from '../../../src/root/node.js';
import { createStoreSync } from '../../../src/root/store.js';
import { runRound, type RoundOutcome } from '../../../src/sync/store/agent.js';
import { addNode, demoHubFolder, freePort, restoredHub, startHub, storeConfig, type ServerProcess } from '../../support/cluster.js';
import { eventsAtHub, queueEvents } from '../../support/queued-events.js';
import { tempDir } from '../../support/server.js';
import { dropHubDatabase, hubDatabaseEnv } from '../../support/hub-engine.js';

let hubDir: string;
/** Puts the hub's processes on the run's engine (test/support/hub-engine.ts). */
let hubEnv: Record<string, string>;
let port: number;
let hub: ServerProcess;
let storeDir: string;
let node: Node;
let sync: NonNullable<ReturnType<typeof createStoreSync>>;

beforeEach(async () => {
  hubDir = tempDir();
  hubEnv = await hubDatabaseEnv(hubDir);
  demoHubFolder(hubDir, hubEnv);
  port = await freePort();
  hub = await startHub(hubDir, hubEnv, port);
  storeDir = tempDir();
  const config = storeConfig(storeDir, hub.url, addNode(hubDir, 'restored-store', hubEnv));
  node = openNode(config, systemClock);
  sync = createStoreSync(node, config, systemClock)!;
  expect(await round()).toMatchObject({ ok: true, bootstrapped: true });
}, 60_000);

afterEach(async () => {
  await sync.client.close();
  node.close();
  await hub.stop();
  rmSync(storeDir, { recursive: true, force: true });
  rmSync(hubDir, { recursive: true, force: true });
  await dropHubDatabase(hubDir);
});

function round(): Promise<RoundOutcome> {
  return runRound(sync, systemClock);
}

/** Restores the hub from a backup taken before it acknowledged `lost` commands of the store. */
async function restoredAfter(lost: number): Promise<void> {
  hub = await restoredHub(
    hub,
    hubDir,
    port,
    async () => {
      queueEvents(node, lost, 'lost');
      expect(await round()).toMatchObject({ ok: true, pushed: lost, rejected: 0, held: 0 });
    },
    hubEnv,
  );
}

describe('a store whose hub was restored from a backup that lost its commands', () => {
  it('with nothing pending, learns it from the feed, bootstraps once and pushes what it queues next', async () => {
    await restoredAfter(5);
    const renewed = await round();
    expect(renewed).toMatchObject({ ok: false, bootstrapped: false, pushed: 0 });
    expect(renewed.error).toMatch(/change feed has a new identity/);
    expect(await round()).toMatchObject({ ok: true, bootstrapped: true, pushed: 5, rejected: 0, held: 0 });

    queueEvents(node, 3, 'next');
    expect(await round()).toMatchObject({ ok: true, bootstrapped: false, pushed: 3, rejected: 0, held: 0 });
    expect(eventsAtHub(hubDir, 'lost')).toEqual({ applied: 5, distinct: 5 });
    expect(eventsAtHub(hubDir, 'next')).toEqual({ applied: 3, distinct: 3 });
  });

  it('with commands pending, learns it from the gap, bootstraps once and pushes what it queues next', async () => {
    await restoredAfter(5);
    queueEvents(node, 2, 'pending');
    const gap = await round();
    expect(gap).toMatchObject({ ok: false, bootstrapped: false, pushed: 0 });
    expect(gap.error).toMatch(/no longer holds commands it acknowledged/);
    expect(await round()).toMatchObject({ ok: true, bootstrapped: true, pushed: 7, rejected: 0, held: 0 });

    queueEvents(node, 3, 'next');
    expect(await round()).toMatchObject({ ok: true, bootstrapped: false, pushed: 3, rejected: 0, held: 0 });
    expect(eventsAtHub(hubDir, 'lost')).toEqual({ applied: 5, distinct: 5 });
    expect(eventsAtHub(hubDir, 'pending')).toEqual({ applied: 2, distinct: 2 });
    expect(eventsAtHub(hubDir, 'next')).toEqual({ applied: 3, distinct: 3 });
  });
});
