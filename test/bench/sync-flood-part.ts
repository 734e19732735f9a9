/**
 * The sync bench's flood part (`npm run bench sync`, BENCH_SYNC_PARTS=flood): a hub process
 * with the demo chain and a pool of customers, read by the back office — one customer at a
 * time, BENCH_SYNC_FLOOD_READS a second — first idle, then while 20 pushers of 8 MB (one command
 * carrying row changes, past the hub's `sync_limits.push_max_bytes` of 4 MB here, four pushers for
 * each of five nodes)
 * and 10 snapshot readers (two for each of five nodes) ask of it all they can, each waiting the
 * Retry-After it is given as a store does, and an honest store queues commands and runs a round
 * every second. Target: the read's p99 during the flood at most 3× its p99 idle, in the same
 * run; the honest store's rounds complete. Prints what the hub answered the flood.
 *
 * Then a reads flood: one node reads as a compromised store can, 20 connections each asking
 * again the moment it is answered, whatever the answer (history reads of the chain's purchases
 * for the demo POS user on ten, pulls of the feed from its start on ten), while the back office
 * reads as before; the same target against the same idle p99 (src/sync/hub/read-budget.ts).
 */
import Database from 'better-sqlite3';
import { setTimeout as delay } from 'node:timers/promises';
import { systemClock } from '../../src/core/clock.js';
import { DEMO_IDS, demoCredentials } from '../../src/demo/demo.js';
import { basePath } from '../../src/http/interfaces.js';
import { databaseFile } from '../../src/root/node.js';
import { PRINCIPAL_HEADER } from '../../src/sync/protocol/protocol.js';
import { openNode } from '../../src/root/node.js';
import { createStoreSync } from '../../src/root/store.js';
import { runRound } from '../../src/sync/store/agent.js';
import { addNode, benchDir, demoBearer, demoHubFolder, startHub, storeConfig, type StoreCredentials } from '../support/cluster.js';
import { addCustomerPool } from '../support/customer-pool.js';
import { floodPushBody, heldPush, syncHeaders } from '../support/sync-flood.js';
import { fixedRate } from './fixed-rate.js';
import { line, megabytes, peakRss } from './report.js';

const SECONDS = Number(process.env.BENCH_SYNC_FLOOD_SECONDS ?? 15);
const READS_PER_SECOND = Number(process.env.BENCH_SYNC_FLOOD_READS ?? 100);
const PUSHERS = 20;
const SNAPSHOTS = 10;
const PUSH_BYTES = 8 * 1024 * 1024;
/** What the hub takes in one push: a flood push is refused at the half of its bytes. */
const PUSH_MAX_BYTES = 4 * 1024 * 1024;
/** Customers beside the demo chain's: a snapshot of a few MB. */
const POOL = 10_000;
/** Commands the honest store queues before each of its rounds. */
const HONEST_BATCH = 20;
/** The reads flood's connections, half history reads and half pulls. */
const READERS = 20;

export async function floodBench(): Promise<void> {
  const hubDir = benchDir('flood-hub');
  demoHubFolder(hubDir);
  addCustomerPool(hubDir, POOL);
  const flooders = Array.from({ length: 5 }, (_, index) => addNode(hubDir, `flood-pusher-${index}`));
  const readers = Array.from({ length: 5 }, (_, index) => addNode(hubDir, `flood-reader-${index}`));
  const honestCredentials = addNode(hubDir, 'flood-honest');
  const historyReader = addNode(hubDir, 'flood-history');
  const posUserId = userIdOf(hubDir, demoCredentials.pos_login);
  const hub = await startHub(hubDir, { LOYALTYD_SYNC_LIMITS__PUSH_MAX_BYTES: String(PUSH_MAX_BYTES) });
  try {
    const config = storeConfig(benchDir('flood-store'), hub.url, honestCredentials);
    const node = openNode(config, systemClock);
    const sync = createStoreSync(node, config, systemClock)!;
    const first = await runRound(sync, systemClock);
    if (!first.ok || !first.bootstrapped) throw new Error(`the honest store's bootstrap failed: ${JSON.stringify(first)}`);

    const readUrl = `${hub.url}/rest-api/enterprise-interface/v1.0/customers/${DEMO_IDS.customerJana}`;
    const headers = { authorization: `Bearer ${await demoBearer(hub.url)}` };
    const read = () => fixedRate(readUrl, headers, () => '', { desks: 10, perDesk: READS_PER_SECOND / 10, seconds: SECONDS, method: 'GET' });
    const idle = await read();

    const flood = new Flood(hub.url);
    const body = floodPushBody(PUSH_BYTES);
    const loops = [
      ...Array.from({ length: PUSHERS }, (_, index) => flood.pushes(flooders[index % flooders.length]!, body)),
      ...Array.from({ length: SNAPSHOTS }, (_, index) => flood.snapshots(readers[index % readers.length]!)),
    ];
    const honest = honestRounds(node, sync, flood);
    const flooded = await read();
    flood.stop();
    await Promise.all(loops);
    const rounds = await honest;
    const pending = node.db.prepare<[], number>("SELECT count(*) FROM outbox WHERE status = 'pending'").pluck().get()!;
    await sync.client.close();
    node.close();

    const ratio = Number(flooded.p99) / Number(idle.p99);
    line('flood: customer read at the hub, idle', `p50 ${idle.p50} ms  p99 ${idle.p99} ms  (${idle.answered} reads, ${idle.errors} errors)`);
    line(
      'flood: the same read during the flood',
      `p50 ${flooded.p50} ms  p99 ${flooded.p99} ms  (${flooded.answered} reads, ${flooded.errors} errors)`,
    );
    line('flood: ratio p99 flood / idle', `${ratio.toFixed(2)}×  (${ratio <= 3 ? 'within target' : 'MISSES target'} ≤ 3×)`);
    line(`flood: ${PUSHERS} pushers of 8 MB, answers`, flood.tally('push'));
    line(`flood: ${SNAPSHOTS} snapshot readers, answers`, flood.tally('snapshot'));
    line(
      'flood: the honest store',
      `${rounds.completed} rounds completed, ${rounds.refused} refused (${rounds.statuses}), ${pending} commands left after the flood`,
    );

    const reads = new ReadsFlood(hub.url, historyReader, posUserId);
    const readLoops = Array.from({ length: READERS }, (_, index) => (index % 2 === 0 ? reads.history() : reads.pulls()));
    const readFlooded = await read();
    reads.stop();
    await Promise.all(readLoops);
    const readRatio = Number(readFlooded.p99) / Number(idle.p99);
    line(
      'reads flood: the same read during it',
      `p50 ${readFlooded.p50} ms  p99 ${readFlooded.p99} ms  (${readFlooded.answered} reads, ${readFlooded.errors} errors)`,
    );
    line('reads flood: ratio p99 reads flood / idle', `${readRatio.toFixed(2)}×  (${readRatio <= 3 ? 'within target' : 'MISSES target'} ≤ 3×)`);
    line(`reads flood: ${READERS / 2} history readers, answers`, reads.tally('history'));
    line(`reads flood: ${READERS / 2} pullers, answers`, reads.tally('pull'));
    line('flood: hub peak RSS', megabytes(peakRss(hub.pid)));
  } finally {
    await hub.stop();
  }
}

/** The flooding nodes' loops and what the hub answered them. */
class Flood {
  private stopped = false;
  private readonly answers = { push: new Map<string, number>(), snapshot: new Map<string, number>() };

  constructor(private readonly hubUrl: string) {}

  stop(): void {
    this.stopped = true;
  }

  get running(): boolean {
    return !this.stopped;
  }

  tally(kind: 'push' | 'snapshot'): string {
    return [...this.answers[kind].entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, count]) => `${status}: ${count.toLocaleString('en')}`)
      .join('  ');
  }

  /** One pusher: a push of `body` as soon as the last is answered, or after the Retry-After it was given. */
  async pushes(node: StoreCredentials, body: Buffer): Promise<void> {
    while (!this.stopped) {
      const push = heldPush(this.hubUrl, node, body);
      push.release();
      const answer = await push.answered.catch(() => undefined);
      await this.noted('push', answer?.status ?? 'error', answer?.retryAfter);
    }
  }

  /** One snapshot reader: a whole snapshot read as soon as the last is, or after the Retry-After it was given. */
  async snapshots(node: StoreCredentials): Promise<void> {
    while (!this.stopped) {
      const response = await fetch(`${this.hubUrl}/sync/v1/snapshot?format=columns`, { headers: syncHeaders(node) }).catch(() => undefined);
      await response?.arrayBuffer().catch(() => undefined);
      await this.noted('snapshot', response?.status ?? 'error', response?.headers.get('retry-after') ?? undefined);
    }
  }

  private async noted(kind: 'push' | 'snapshot', status: number | string, retryAfter: string | undefined): Promise<void> {
    this.answers[kind].set(String(status), (this.answers[kind].get(String(status)) ?? 0) + 1);
    if (retryAfter !== undefined) await delay(Number(retryAfter) * 1000);
  }
}

/** One store's node reading all it can, asking again at once whatever it is answered, and what the hub answered it. */
class ReadsFlood {
  private stopped = false;
  private readonly answers = { history: new Map<string, number>(), pull: new Map<string, number>() };
  private readonly headers: Record<string, string>;

  constructor(
    private readonly hubUrl: string,
    node: StoreCredentials,
    posUserId: string,
  ) {
    const principal = Buffer.from(JSON.stringify({ kind: 'user', userId: posUserId, scheme: 'bearer' })).toString('base64url');
    this.headers = { ...syncHeaders(node), [PRINCIPAL_HEADER]: principal };
  }

  stop(): void {
    this.stopped = true;
  }

  tally(kind: 'history' | 'pull'): string {
    return [...this.answers[kind].entries()].map(([status, count]) => `${status}: ${count.toLocaleString('en')}`).join('  ');
  }

  history(): Promise<void> {
    return this.loop('history', `${this.hubUrl}/sync/v1/history${basePath('enterprise')}/purchases?count=50`);
  }

  pulls(): Promise<void> {
    return this.loop('pull', `${this.hubUrl}/sync/v1/changes?after=0&limit=1000`);
  }

  private async loop(kind: 'history' | 'pull', url: string): Promise<void> {
    while (!this.stopped) {
      const response = await fetch(url, { headers: this.headers }).catch(() => undefined);
      await response?.arrayBuffer().catch(() => undefined);
      const status = String(response?.status ?? 'error');
      this.answers[kind].set(status, (this.answers[kind].get(status) ?? 0) + 1);
    }
  }
}

function userIdOf(hubDir: string, login: string): string {
  const db = new Database(databaseFile(hubDir), { readonly: true });
  try {
    return db.prepare<[string], string>('SELECT id FROM users WHERE login = ?').pluck().get(login)!;
  } finally {
    db.close();
  }
}

/**
 * The honest store while the flood runs: it queues a few commands, runs a round and waits a
 * second, or the Retry-After the hub gave it; once the flood is over, it rounds until its
 * outbox is empty.
 */
async function honestRounds(
  node: ReturnType<typeof openNode>,
  sync: NonNullable<ReturnType<typeof createStoreSync>>,
  flood: Flood,
): Promise<{ completed: number; refused: number; statuses: string }> {
  let completed = 0;
  let refused = 0;
  const statuses = new Set<number>();
  let event = 0;
  for (let round = 0; flood.running || round === 0; round += 1) {
    if (flood.running) {
      node.db.transaction(() => {
        for (let i = 0; i < HONEST_BATCH; i += 1) {
          const id = node.newId();
          node.writes.write({ kind: 'events.create', payload: { event_id: id } }, (tx) =>
            tx.insert('events', {
              id,
              event_type_id: 'bench',
              customer_id: DEMO_IDS.customerJana,
              external_id: `honest-${(event += 1)}`,
              data: '{}',
              created_at: new Date().toISOString(),
            }),
          );
        }
      })();
    }
    const outcome = await runRound(sync, systemClock);
    if (outcome.ok) completed += 1;
    else {
      refused += 1;
      if (outcome.hubStatus !== undefined) statuses.add(outcome.hubStatus);
    }
    await delay(Math.max(1000, outcome.retryAfterMs ?? 0));
  }
  for (let tries = 0; tries < 10 && !(await runRound(sync, systemClock)).ok; tries += 1) await delay(1000);
  return { completed, refused, statuses: [...statuses].join(', ') || 'none' };
}
