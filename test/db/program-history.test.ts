/**
 * The hub judges a store's operation by the program in force at its as-of time (DESIGN §5), so
 * every node keeps each version of the program with the instant it came into force
 * (src/db/migrations/0020-program-history.ts), whichever way the program row changed there.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import { MIGRATIONS } from '../../src/db/migrations/index.js';
import { openDatabase, type Db } from '../../src/db/open.js';
import type { RowChange } from '../../src/db/write-path.js';
import { PROGRAM_ROW_ID, ProgramRepo, VERSION_IN_FORCE_SQL } from '../../src/loyalty/program.repo.js';
import { ProgramService } from '../../src/loyalty/program.service.js';
import { openNode, type Node } from '../../src/root/node.js';
import { TestClock } from '../support/server.js';
import { tempFolders } from '../support/temp-folders.js';

const MONDAY = Date.UTC(2026, 10, 2, 9, 0, 0);
const WEDNESDAY = Date.UTC(2026, 10, 4, 9, 0, 0);
const HOUR = 3_600_000;

const opened: { close(): void }[] = [];
const { newFolder, removeFolders } = tempFolders('loyaltyd-program-history-');

afterEach(() => {
  for (const node of opened.splice(0)) node.close();
  removeFolders();
});

function open(mode: 'hub' | 'store', clock: TestClock): Node {
  const node = openNode({ data_dir: newFolder(), mode }, clock.now);
  opened.push(node);
  return node;
}

/** A program file whose versions tell apart by their point validity. */
function programOf(validityDays: number): Record<string, unknown> {
  return { currency_id: 'CZK', point_value: 0.5, point_validity_days: validityDays, earning: [], rewards: [] };
}

/** `loyaltyd program load` on this node, at the clock's time. */
function loadProgram(node: Node, program: Record<string, unknown>): void {
  new ProgramService(node.db, new ProgramRepo(node.db), node.writes).load(program);
}

function history(db: Db): { body: string; in_force_from: string }[] {
  return db.prepare<[], { body: string; in_force_from: string }>('SELECT body, in_force_from FROM program_history ORDER BY id').all();
}

/** The program row's changes in the hub's feed, as a store is sent them. */
function programChanges(hub: Node): RowChange[] {
  return hub.db
    .prepare<[], { entity: string; entity_id: string; op: RowChange['op']; row: string; hlc: string }>(
      "SELECT entity, entity_id, op, row, hlc FROM changes WHERE entity = 'program_rules' ORDER BY seq",
    )
    .all()
    .map((change) => ({ ...change, row: JSON.parse(change.row) }));
}

describe('program history', () => {
  it('judges an instant by the version of the program then in force, the first version before it, and none before any program', () => {
    const clock = new TestClock(MONDAY);
    const hub = open('hub', clock);
    const repo = new ProgramRepo(hub.db);
    expect(repo.load(MONDAY)).toBeUndefined();

    loadProgram(hub, programOf(30));
    clock.ms = WEDNESDAY;
    loadProgram(hub, programOf(60));

    expect(history(hub.db)).toEqual([
      { body: expect.stringContaining('"point_validity_days":30'), in_force_from: new Date(MONDAY).toISOString() },
      { body: expect.stringContaining('"point_validity_days":60'), in_force_from: new Date(WEDNESDAY).toISOString() },
    ]);
    const validityAt = (at: number) => repo.load(at)?.point_validity_days;
    expect(validityAt(MONDAY - 24 * HOUR)).toBe(30);
    expect(validityAt(MONDAY)).toBe(30);
    expect(validityAt(WEDNESDAY - 1)).toBe(30);
    expect(validityAt(WEDNESDAY)).toBe(60);
    expect(validityAt(WEDNESDAY + 24 * HOUR)).toBe(60);
    expect(repo.load()?.point_validity_days).toBe(60);
    // A batch of the same day parses its version once.
    expect(repo.load(MONDAY + HOUR)).toBe(repo.load(MONDAY + 2 * HOUR));
  });

  it('keeps no new version when the same program is loaded again', () => {
    const clock = new TestClock(MONDAY);
    const hub = open('hub', clock);
    loadProgram(hub, programOf(30));
    clock.ms = WEDNESDAY;
    loadProgram(hub, programOf(30));

    expect(history(hub.db).map((version) => version.in_force_from)).toEqual([new Date(MONDAY).toISOString()]);
    expect(new ProgramRepo(hub.db).load(WEDNESDAY)?.point_validity_days).toBe(30);
  });

  it('finds the version in force by one seek of the index on in_force_from', () => {
    const hub = open('hub', new TestClock(MONDAY));
    const plan = hub.db.prepare(`EXPLAIN QUERY PLAN ${VERSION_IN_FORCE_SQL}`).all(new Date(MONDAY).toISOString()) as { detail: string }[];
    // The newest version at or before the instant, else the earliest: each the first entry the index gives, never a sort.
    const reads = plan.map((step) => step.detail).filter((detail) => /program_history|B-TREE/.test(detail));
    expect(reads).toEqual([
      'SEARCH program_history USING COVERING INDEX program_history_by_in_force_from (in_force_from<?)',
      'SCAN program_history USING COVERING INDEX program_history_by_in_force_from',
    ]);
  });

  it('keeps a bounded number of parsed versions and parses an evicted one again', () => {
    const clock = new TestClock(MONDAY);
    const hub = open('hub', clock);
    const days = Array.from({ length: 12 }, (_, day) => MONDAY + day * 24 * HOUR);
    for (const [day, at] of days.entries()) {
      clock.ms = at;
      loadProgram(hub, programOf(day + 1));
    }
    const repo = new ProgramRepo(hub.db);
    const first = repo.load(days[0]! + HOUR);
    expect(days.map((at) => repo.load(at + HOUR)?.point_validity_days)).toEqual(days.map((_, day) => day + 1));
    expect(repo.load(days[11]! + 2 * HOUR)).toBe(repo.load(days[11]! + HOUR));
    const again = repo.load(days[0]! + 2 * HOUR);
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
  });

  it('gives a store a version for each program row it applies from its hub, and none for a change it already holds', () => {
    const hubClock = new TestClock(MONDAY);
    const hub = open('hub', hubClock);
    loadProgram(hub, programOf(30));
    hubClock.ms = WEDNESDAY;
    loadProgram(hub, programOf(60));
    const [inserted, updated] = programChanges(hub);

    const store = open('store', new TestClock(WEDNESDAY + HOUR));
    const apply = (change: RowChange) => store.db.transaction(() => store.replicated.apply(change, false))();
    expect(apply(inserted!)).toBe(true);
    expect(apply(updated!)).toBe(true);
    expect(apply(inserted!)).toBe(false);
    expect(apply(updated!)).toBe(false);

    expect(history(store.db)).toEqual(history(hub.db));
    const repo = new ProgramRepo(store.db);
    expect(repo.load(MONDAY + HOUR)?.point_validity_days).toBe(30);
    expect(repo.load(WEDNESDAY + HOUR)?.point_validity_days).toBe(60);
  });

  it('seeds the history with the program a database at schema 19 holds, in force from its last change', () => {
    const db = openDatabase(join(newFolder(), 'loyaltyd.sqlite'));
    opened.push(db);
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 19),
    );
    const body = JSON.stringify(programOf(30));
    const lastChange = new Date(MONDAY).toISOString();
    db.prepare("INSERT INTO program_rules (id, kind, body, hlc, last_change) VALUES (?, 'program', ?, '0001', ?)").run(
      PROGRAM_ROW_ID,
      body,
      lastChange,
    );

    expect(
      migrate(
        db,
        MIGRATIONS.filter((migration) => migration.version <= 20),
      ).applied,
    ).toEqual(['0020-program-history']);
    expect(history(db)).toEqual([{ body, in_force_from: lastChange }]);
    expect(new ProgramRepo(db).load(MONDAY - 24 * HOUR)?.point_validity_days).toBe(30);
  });

  it('seeds no history on a database at schema 19 that holds no program', () => {
    const db = openDatabase(join(newFolder(), 'loyaltyd.sqlite'));
    opened.push(db);
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 19),
    );
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 20),
    );
    expect(history(db)).toEqual([]);
    expect(new ProgramRepo(db).load(MONDAY)).toBeUndefined();
  });
});
