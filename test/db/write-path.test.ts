import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/open.js';
import { databaseFile, openNode, type Node } from '../../src/root/node.js';
import { decodeHlc } from '../../src/core/hlc.js';
import { rowsDigest } from '../../src/db/rows-digest.js';
import type { WrittenRow } from '../../src/db/write-path.js';
import { TestClock } from '../support/server.js';
import { tempFolders } from '../support/temp-folders.js';

interface ChangeRow {
  seq: number;
  entity: string;
  entity_id: string;
  op: string;
  row: string | null;
  hlc: string;
}

interface OutboxRow {
  seq: number;
  command_id: string;
  generation: string;
  kind: string;
  payload: string;
  changes: string;
  operation: string;
  hlc: string;
  created_at: string;
}

const START = Date.UTC(2026, 4, 17, 9, 30, 0);

const opened: Node[] = [];
const { newFolder, removeFolders } = tempFolders('loyaltyd-write-path-');

afterEach(() => {
  for (const node of opened.splice(0)) if (node.db.open) node.close();
  removeFolders();
});

function open(mode: 'store' | 'hub', clock = new TestClock(START), dataDir = newFolder()): Node {
  const node = openNode({ data_dir: dataDir, mode }, clock.now);
  opened.push(node);
  return node;
}

function changes(node: Node): ChangeRow[] {
  return node.db.prepare<[], ChangeRow>('SELECT * FROM changes ORDER BY seq').all();
}

function outbox(node: Node): OutboxRow[] {
  return node.db.prepare<[], OutboxRow>('SELECT * FROM outbox ORDER BY seq').all();
}

function count(node: Node, table: string): number {
  return node.db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`).get()!.n;
}

/** A bill's row: a store without a hub keeps in its feed the tables its recommendation model reads. */
function sale(node: Node, bill: string): WrittenRow<'purchases'> {
  return {
    id: node.newId(),
    customer_id: null,
    store_id: 'store',
    external_purchase_id: bill,
    bill_number: null,
    payment_time: new Date(START).toISOString(),
    type_id: null,
    total_price_minor: 100,
    currency_id: null,
    card_number: null,
    cashdesk_number: null,
    canceled: 0,
    cancels_purchase_id: null,
    bill: '{}',
    state: 1,
  };
}

function expectIncreasing(stamps: string[]): void {
  for (let i = 1; i < stamps.length; i += 1) expect(stamps[i]! > stamps[i - 1]!, `${stamps[i]} after ${stamps[i - 1]}`).toBe(true);
}

describe('the write path', () => {
  it('records one insert change with the stored row and stamps the row with that change', () => {
    const node = open('hub');
    const id = node.newId();
    node.writes.write(null, (tx) => tx.insert('external_applications', { id, name: 'Till', state: 1 }));

    const [change, ...others] = changes(node);
    expect(others).toEqual([]);
    expect(change).toMatchObject({ entity: 'external_applications', entity_id: id, op: 'insert' });
    const stored = node.db.prepare('SELECT * FROM external_applications WHERE id = ?').get(id) as Record<string, unknown>;
    expect(stored.hlc).toBe(change!.hlc);
    expect(stored.last_change).toBe(new Date(decodeHlc(change!.hlc).ms).toISOString());
    expect(JSON.parse(change!.row!)).toEqual(stored);
  });

  it('records one update change with the whole row after the update', () => {
    const node = open('hub');
    const id = node.newId();
    node.writes.write(null, (tx) => tx.insert('external_applications', { id, name: 'Till', state: 1 }));
    const updated = node.writes.write(null, (tx) => tx.update('external_applications', id, { name: 'Till 2' }));

    expect(updated).toBe(true);
    const all = changes(node);
    expect(all).toHaveLength(2);
    expect(all[1]).toMatchObject({ entity: 'external_applications', entity_id: id, op: 'update' });
    const stored = node.db.prepare('SELECT * FROM external_applications WHERE id = ?').get(id) as Record<string, unknown>;
    expect(stored).toMatchObject({ name: 'Till 2', state: 1, hlc: all[1]!.hlc });
    expect(JSON.parse(all[1]!.row!)).toEqual(stored);
  });

  it('records one delete change without a row', () => {
    const node = open('hub');
    const id = node.newId();
    node.writes.write(null, (tx) => tx.insert('external_applications', { id, name: 'Till', state: 1 }));
    const removed = node.writes.write(null, (tx) => tx.remove('external_applications', id));

    expect(removed).toBe(true);
    expect(count(node, 'external_applications')).toBe(0);
    const all = changes(node);
    expect(all).toHaveLength(2);
    expect(all[1]).toMatchObject({ entity: 'external_applications', entity_id: id, op: 'delete', row: null });
  });

  it('records exactly one change per changed record, in order, with increasing stamps', () => {
    const node = open('hub');
    const [a, b, c] = [node.newId(), node.newId(), node.newId()];
    node.writes.write(null, (tx) => {
      tx.insert('external_applications', { id: a, name: 'A', state: 1 });
      tx.insert('external_applications', { id: b, name: 'B', state: 1 });
      tx.insert('external_applications', { id: c, name: 'C', state: 1 });
      tx.update('external_applications', a, { name: 'A2' });
      tx.remove('external_applications', b);
    });
    node.writes.write(null, (tx) => tx.update('external_applications', c, { state: 0 }));

    const all = changes(node);
    expect(all.map((change) => [change.op, change.entity_id])).toEqual([
      ['insert', a],
      ['insert', b],
      ['insert', c],
      ['update', a],
      ['delete', b],
      ['update', c],
    ]);
    // The test clock never moves, so every stamp after the first lives on its counter.
    expectIncreasing(all.map((change) => change.hlc));
  });

  it('stamps increase even when the wall clock steps back between writes', () => {
    const clock = new TestClock(START);
    const node = open('hub', clock);
    node.writes.write(null, (tx) => tx.insert('external_applications', { id: node.newId(), name: 'A', state: 1 }));
    clock.advance(-3_600_000);
    node.writes.write(null, (tx) => tx.insert('external_applications', { id: node.newId(), name: 'B', state: 1 }));
    expectIncreasing(changes(node).map((change) => change.hlc));
  });

  it('commits the rows and their changes in one transaction, invisible to another connection until it commits', () => {
    const dataDir = newFolder();
    const node = open('store', new TestClock(START), dataDir);
    const reader = openDatabase(databaseFile(dataDir));
    try {
      const seenInside = node.writes.write({ kind: 'test.create', payload: {} }, (tx) => {
        tx.insert('purchases', sale(node, 'A'));
        tx.insert('purchases', sale(node, 'B'));
        // The feed's changes are recorded as the write ends, still inside its transaction.
        return {
          writer: count(node, 'purchases'),
          reader: reader.prepare<[], { n: number }>('SELECT (SELECT count(*) FROM changes) + (SELECT count(*) FROM purchases) AS n').get()!.n,
        };
      });
      expect(seenInside).toEqual({ writer: 2, reader: 0 });
      expect(reader.prepare<[], { n: number }>('SELECT count(*) AS n FROM changes').get()!.n).toBe(2);
      expect(reader.prepare<[], { n: number }>('SELECT count(*) AS n FROM purchases').get()!.n).toBe(2);
      expect(reader.prepare<[], { n: number }>('SELECT count(*) AS n FROM outbox').get()!.n).toBe(1);
    } finally {
      reader.close();
    }
  });

  it('leaves no rows, changes or outbox commands when the work throws after two inserts', () => {
    const node = open('store');
    node.writes.write({ kind: 'test.before', payload: {} }, (tx) => tx.insert('purchases', sale(node, 'Kept')));
    const before = { apps: count(node, 'purchases'), changes: count(node, 'changes'), outbox: count(node, 'outbox') };

    expect(() =>
      node.writes.write({ kind: 'test.fails', payload: { n: 2 } }, (tx) => {
        tx.insert('purchases', sale(node, 'A'));
        tx.insert('purchases', sale(node, 'B'));
        throw new Error('the checkout failed midway');
      }),
    ).toThrow('the checkout failed midway');

    expect(before).toEqual({ apps: 1, changes: 1, outbox: 1 });
    expect({ apps: count(node, 'purchases'), changes: count(node, 'changes'), outbox: count(node, 'outbox') }).toEqual(before);
    expect(outbox(node).map((command) => command.kind)).toEqual(['test.before']);
  });

  it('leaves nothing when a statement fails midway, as a broken reference does', () => {
    const node = open('store');
    expect(() =>
      node.writes.write({ kind: 'test.fails', payload: {} }, (tx) => {
        const app = node.newId();
        tx.insert('external_applications', { id: app, name: 'A', state: 1 });
        tx.insert('users', { id: node.newId(), login: 'pos', password_hash: 'x', external_application_id: app, state: 1 });
        tx.insert('users', { id: node.newId(), login: 'pos2', password_hash: 'x', external_application_id: 'no-such-app', state: 1 });
      }),
    ).toThrow(/FOREIGN KEY/);
    expect([count(node, 'external_applications'), count(node, 'users'), count(node, 'changes'), count(node, 'outbox')]).toEqual([0, 0, 0, 0]);
  });

  it('in store mode appends exactly one outbox command per write that carries one', () => {
    const clock = new TestClock(START);
    const node = open('store', clock);
    node.writes.write({ kind: 'customers.create', payload: { first_name: 'Jana' } }, (tx) => {
      tx.insert('purchases', sale(node, 'A'));
      tx.insert('purchases', sale(node, 'B'));
    });
    node.writes.write(null, (tx) => tx.insert('purchases', sale(node, 'C')));
    clock.advance(1000);
    node.writes.write({ kind: 'customers.update', payload: { last_name: 'Nováková' } }, (tx) => tx.insert('purchases', sale(node, 'D')));

    const commands = outbox(node);
    expect(commands.map((command) => [command.kind, JSON.parse(command.payload)])).toEqual([
      ['customers.create', { first_name: 'Jana' }],
      ['customers.update', { last_name: 'Nováková' }],
    ]);
    for (const command of commands) {
      expect(command.command_id).toMatch(/^[0-9a-f]{26}$/);
      expect(command.generation).toBe(node.identity.generation);
    }
    expect(commands.map((command) => command.created_at)).toEqual([new Date(START).toISOString(), new Date(START + 1000).toISOString()]);
    expect(new Set(commands.map((command) => command.command_id)).size).toBe(2);
    // A command is stamped after the changes it made, so it sorts after them.
    const all = changes(node);
    expect(commands[0]!.hlc > all[1]!.hlc).toBe(true);
    expect(commands[0]!.hlc < all[2]!.hlc).toBe(true);
    expectIncreasing(commands.map((command) => command.hlc));
  });

  it('in store mode keeps the rows a command wrote at the store, and sends up only their stamps, in write order, and their digest', () => {
    const node = open('store');
    node.writes.write({ kind: 'customers.create', payload: {} }, (tx) => {
      tx.insert('purchases', sale(node, 'A'));
      tx.insert('purchases', sale(node, 'B'));
    });
    const [command] = outbox(node);
    const written = changes(node);
    const kept = JSON.parse(command!.changes) as { entity_id: string; hlc: string }[];
    expect(kept.map((change) => [change.entity_id, change.hlc])).toEqual(written.map((change) => [change.entity_id, change.hlc]));
    expect(JSON.parse(command!.operation)).toEqual({ ids: [], stamps: written.map((change) => change.hlc), digest: rowsDigest(command!.changes) });
    // The digest is of the rows' text: another row's is another digest.
    expect(rowsDigest(command!.changes.replace('"A"', '"Z"'))).not.toBe(rowsDigest(command!.changes));
  });

  it('in hub mode appends no outbox command, even for a write that carries one', () => {
    const node = open('hub');
    node.writes.write({ kind: 'customers.create', payload: { first_name: 'Jana' } }, (tx) =>
      tx.insert('external_applications', { id: node.newId(), name: 'A', state: 1 }),
    );
    expect(count(node, 'outbox')).toBe(0);
    expect(count(node, 'changes')).toBe(1);
  });

  it('answers false and records nothing for an update of a missing id', () => {
    const node = open('store');
    const updated = node.writes.write(null, (tx) => tx.update('external_applications', node.newId(), { name: 'Nobody' }));
    expect(updated).toBe(false);
    expect(count(node, 'changes')).toBe(0);
    expect(count(node, 'external_applications')).toBe(0);
  });

  it('answers false and records nothing for a delete of a missing id', () => {
    const node = open('hub');
    const removed = node.writes.write(null, (tx) => tx.remove('external_applications', node.newId()));
    expect(removed).toBe(false);
    expect(count(node, 'changes')).toBe(0);
  });

  it('returns what the work returns', () => {
    const node = open('hub');
    expect(node.writes.write(null, () => 42)).toBe(42);
  });

  it('resumes stamps past every stamp of a reopened database, its outbox commands included', () => {
    // A clock frozen on one millisecond: only the stored stamps tell the reopened
    // database where its counter stands.
    const clock = new TestClock(START);
    const dataDir = newFolder();
    const first = open('store', clock, dataDir);
    for (const bill of ['A', 'B', 'C']) first.writes.write({ kind: 'test.create', payload: {} }, (tx) => tx.insert('purchases', sale(first, bill)));
    const before = [...changes(first).map((change) => change.hlc), ...outbox(first).map((command) => command.hlc)];
    first.close();

    const second = open('store', clock, dataDir);
    expect(second.identity.nodeId).toBe(first.identity.nodeId);
    second.writes.write(null, (tx) => tx.insert('purchases', sale(second, 'D')));
    const after = changes(second).at(-1)!.hlc;
    for (const stamp of before) expect(after > stamp, `${after} after ${stamp}`).toBe(true);
  });

  it('resumes stamps past a write that queued no command, of rows the feed does not keep, when the clock was set back', () => {
    const clock = new TestClock(START);
    const dataDir = newFolder();
    const first = open('store', clock, dataDir);
    first.writes.write(null, (tx) => tx.insert('external_applications', { id: first.newId(), name: 'A', state: 1 }));
    const written = first.db.prepare<[], string>('SELECT hlc FROM external_applications').pluck().get()!;
    expect(count(first, 'changes') + count(first, 'outbox')).toBe(0);
    first.close();

    clock.advance(-60_000);
    const second = open('store', clock, dataDir);
    second.writes.write({ kind: 'test.create', payload: {} }, (tx) => tx.insert('purchases', sale(second, 'B')));
    const after = changes(second).at(-1)!.hlc;
    expect(after > written, `${after} after ${written}`).toBe(true);
  });

  it("moves a table version at once for its own writes, and for another connection's commit from the next turn of the event loop", async () => {
    const dataDir = newFolder();
    const node = open('store', new TestClock(START), dataDir);
    const other = openDatabase(databaseFile(dataDir));
    try {
      const first = node.writes.versions.turnTableVersion('external_applications');
      node.writes.write(null, (tx) => tx.insert('external_applications', { id: node.newId(), name: 'A', state: 1 }));
      const afterOwnWrite = node.writes.versions.turnTableVersion('external_applications');
      expect(afterOwnWrite).not.toBe(first);

      other.prepare("INSERT INTO meta (key, value) VALUES ('turn-test', '1')").run();
      // tableVersion reads data_version each time; turnTableVersion once a turn.
      expect(node.writes.versions.tableVersion('external_applications')).not.toBe(afterOwnWrite);
      expect(node.writes.versions.turnTableVersion('external_applications')).toBe(afterOwnWrite);
      await new Promise((resolve) => setImmediate(resolve));
      expect(node.writes.versions.turnTableVersion('external_applications')).not.toBe(afterOwnWrite);
      // Inside a read transaction it is the transaction's own reading.
      node.writes.versions.reading(() =>
        expect(node.writes.versions.turnTableVersion('external_applications')).toBe(node.writes.versions.tableVersion('external_applications')),
      );
    } finally {
      other.close();
    }
  });
});

describe("the write path's feed, recorded as each write ends", () => {
  it('records the changes of writes nested in a write in the order made, without those of a nested write that failed', () => {
    const node = open('store');
    node.writes.write({ kind: 'test.outer', payload: {} }, (tx) => {
      tx.insert('purchases', sale(node, 'A'));
      expect(() =>
        node.writes.write(null, (inner) => {
          inner.insert('purchases', sale(node, 'B'));
          throw new Error('the inner write failed');
        }),
      ).toThrow('the inner write failed');
      node.writes.write(null, (inner) => inner.insert('purchases', sale(node, 'C')));
      tx.insert('purchases', sale(node, 'D'));
    });

    const bills = node.db.prepare<[], string>('SELECT external_purchase_id FROM purchases ORDER BY external_purchase_id').pluck().all();
    expect(bills).toEqual(['A', 'C', 'D']);
    const fed = changes(node).map((change) => (JSON.parse(change.row!) as { external_purchase_id: string }).external_purchase_id);
    expect(fed).toEqual(['A', 'C', 'D']);
    expect(changes(node).map((change) => change.seq)).toEqual([...changes(node).map((change) => change.seq)].sort((a, b) => a - b));
  });

  it('keeps of a row whose newest change alone stays the last change a write made of it, and drops the change an earlier write recorded', () => {
    const node = open('hub');
    const customer = node.newId();
    const state = (credit: number) => ({
      id: customer,
      horizon: '',
      lots: '[]',
      debt_milli: 0,
      tail: '[]',
      credit_minor: credit,
      credit_tail: '[]',
      earned_milli: 0,
      redeemed_milli: 0,
      earned_credit_minor: 0,
      redeemed_credit_minor: 0,
    });
    node.writes.write(null, (tx) => {
      tx.insert('customers', { id: customer, first_name: 'Jana', last_name: 'Nová', email: null });
      tx.insert('customer_states', state(100));
    });
    node.writes.write(null, (tx) => {
      tx.update('customer_states', customer, { credit_minor: 200 });
      tx.update('customer_states', customer, { credit_minor: 300 });
    });

    const ofState = changes(node).filter((change) => change.entity === 'customer_states');
    expect(ofState).toHaveLength(1);
    expect(ofState[0]).toMatchObject({ op: 'update' });
    expect(JSON.parse(ofState[0]!.row!)).toMatchObject({ credit_minor: 300 });
    expect(changes(node).filter((change) => change.entity === 'customers')).toHaveLength(1);
  });
});
