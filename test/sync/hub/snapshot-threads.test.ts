/**
 * A serving hub reads its snapshots on threads of their own (src/sync/hub/snapshot-threads.ts),
 * a real hub process on loopback with one snapshot thread at most: a snapshot sent from a
 * thread, in pages of two-byte characters larger than the memory it shares with the event loop
 * and so sent in parts, holds what a snapshot read on the test's own thread holds; a reader
 * that goes away mid-snapshot gives the thread back to the next; and on Linux the thread runs
 * at a lower priority than the event loop.
 */
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SnapshotHeader } from '../../../src/sync/protocol/protocol.js';
import { readSnapshot } from '../../../src/sync/hub/snapshot-reading.js';
import { addNode, demoHubFolder, startHub, type ServerProcess, type StoreCredentials } from '../../support/cluster.js';
import { addCustomerPool } from '../../support/customer-pool.js';
import { heldSnapshot, syncHeaders, type HeldRequest } from '../../support/sync-flood.js';
import { tempDir } from '../../support/server.js';
import { waitFor } from '../../support/wait.js';
import { dropHubDatabase, hubDatabaseEnv, hubDatabaseSource, openHubDatabase } from '../../support/hub-engine.js';

/** Customers whose names fill a snapshot page (2,000 rows) past the shared megabyte. */
const CUSTOMERS = 5_000;
/** A name of 1,000 bytes in two-byte characters, which a part of a page may not have room for. */
const LONG_NAME = 'Ž'.repeat(500);

let hubDir: string;
let hub: ServerProcess;
let readers: StoreCredentials[];
const held: HeldRequest[] = [];

beforeAll(async () => {
  hubDir = tempDir();
  const hubEnv = await hubDatabaseEnv(hubDir);
  demoHubFolder(hubDir, hubEnv);
  addCustomerPool(hubDir, CUSTOMERS);
  const db = openHubDatabase(hubDir);
  db.prepare("UPDATE customers SET first_name = ? || id WHERE id LIKE 'b0%'").run(LONG_NAME);
  db.close();
  readers = Array.from({ length: 6 }, (_, index) => addNode(hubDir, `snapshot-reader-${index}`, hubEnv));
  hub = await startHub(hubDir, {
    ...hubEnv,
    LOYALTYD_SYNC_LIMITS__SNAPSHOTS_IN_ALL: '1',
    LOYALTYD_SYNC_LIMITS__SNAPSHOTS_PER_NODE: '1',
    LOYALTYD_SYNC_LIMITS__RETRY_AFTER_SECONDS: '1',
  });
}, 60_000);

afterAll(async () => {
  for (const request of held) request.release();
  await hub?.stop();
  rmSync(hubDir, { recursive: true, force: true });
  await dropHubDatabase(hubDir);
});

/** A whole snapshot read by `reader`, once the hub admits it. */
function snapshotText(reader: StoreCredentials): Promise<string> {
  // The one snapshot slot may still be held by a reader that went away: it is given back when its thread has stopped reading.
  return waitFor(`a snapshot for ${reader.node_name}`, async () => {
    const response = await fetch(`${hub.url}/sync/v1/snapshot?format=columns`, { headers: syncHeaders(reader) });
    if (response.status === 200) return response.text();
    expect([429, 503]).toContain(response.status);
    await response.arrayBuffer();
    return undefined;
  });
}

/** A snapshot admitted and left unread, from the first reader the hub admits. */
function admittedHeldSnapshot(): Promise<HeldRequest> {
  let attempt = 0;
  return waitFor('a snapshot admitted', async () => {
    const request = heldSnapshot(hub.url, readers[(attempt += 1) % readers.length]!);
    held.push(request);
    return (await request.answered).status === 200 && request;
  });
}

describe("a hub's snapshot threads", () => {
  it('send what a snapshot read on the caller’s thread holds, pages larger than the shared memory included', async () => {
    const lines = (await snapshotText(readers[0]!)).split('\n').filter(Boolean);
    const header = SnapshotHeader.parse(JSON.parse(lines[0]!));
    const tables = lines.slice(1).flatMap((line) => {
      const parsed = JSON.parse(line) as { table?: string };
      return parsed.table === undefined ? [] : [parsed.table];
    });
    expect(tables).toContain('customers');
    const longest = Math.max(...lines.map((line) => Buffer.byteLength(line)));
    expect(longest).toBeGreaterThan(1000);
    expect(lines.join('\n').length).toBeGreaterThan(2 * 1024 * 1024);

    const db = openHubDatabase(hubDir, { readonly: true });
    const nodeId = db.prepare<[string], string>('SELECT id FROM nodes WHERE name = ?').pluck().get(readers[0]!.node_name)!;
    db.close();
    let local = '';
    await readSnapshot(
      {
        source: hubDatabaseSource(hubDir),
        schemaVersion: header.schema_version,
        tables,
        afterId: '',
        format: 'columns',
        nodeThrough: header.node_through,
        nodeId,
      },
      {
        stamp: async () => header.clock!,
        send: async (part) => {
          local += Buffer.from(part).toString('utf8');
        },
      },
    );
    expect(lines).toEqual(local.split('\n').filter(Boolean));
    expect(lines.filter((line) => line.includes(LONG_NAME))).toHaveLength(CUSTOMERS);
  });

  it('give the thread of a reader that went away mid-snapshot to the next reader', async () => {
    for (let cut = 0; cut < 3; cut += 1) {
      const request = await admittedHeldSnapshot();
      request.release();
    }
    const text = await snapshotText(readers[1]!);
    expect(text.endsWith('{"end":true}\n')).toBe(true);
  });

  it.runIf(process.platform === 'linux')('read at a lower priority than the event loop, on Linux', async () => {
    const request = await admittedHeldSnapshot();
    const niceOf = (task: string) => Number(readFileSync(`/proc/${hub.pid}/task/${task}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
    const tasks = readdirSync(`/proc/${hub.pid}/task`);
    const eventLoop = niceOf(String(hub.pid));
    expect(tasks.map(niceOf)).toContain(Math.min(19, eventLoop + 10));
    request.release();
  });
});
