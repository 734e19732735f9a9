/**
 * The recommendation model's recency carry is JavaScript's on SQLite and a function of the
 * database on PostgreSQL (src/db/migrations/postgres/recommendation-functions.ts): both must
 * give the same integers, or a hub on PostgreSQL would publish other weights than a store
 * with no hub computes from the same bills.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/engine.js';
import { migrate } from '../../src/db/migrate.js';
import { openDatabase } from '../../src/db/open.js';
import { PostgresDb } from '../../src/db/postgres/postgres-db.js';
import { ModelAccumulatorsRepo } from '../../src/features/recommendations/model-accumulators.repo.js';
import { carry } from '../../src/features/recommendations/recency-weights.js';
import { freshPostgresDatabase, type PostgresDatabase } from '../support/postgres.js';

/** Weights of either sign, up to the largest whose product with a decay JavaScript still holds exactly. */
const WEIGHTS = [0, 1, -1, 7, 999, 1000, 1001, -1001, 123_456_789, -987_654_321, 9_007_199_254_740, -9_007_199_254_740];
/** Ages in days: earlier than the weight's day, its day, around each half-life, the last day of the table and past it. */
const AGES = [-400, -1, 0, 1, 2, 45, 89, 90, 91, 180, 500, 987, 988, 1000, 1094, 1095, 1096, 1097, 5000];
/** The day a weight is kept as of: the epoch, a day of ours, a day before the epoch. */
const FROM_DAYS = [0, 19_876, -3];

let folder: string;
let sqlite: Db;
let database: PostgresDatabase;
let postgres: PostgresDb;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'loyaltyd-carry-'));
  sqlite = openDatabase(join(folder, 'node.sqlite'));
  migrate(sqlite);
  database = await freshPostgresDatabase();
  postgres = new PostgresDb(database.url);
  migrate(postgres);
});

afterAll(async () => {
  sqlite?.close();
  postgres?.close();
  await database?.drop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe("PostgreSQL's recommendation_carry", () => {
  it("gives JavaScript's carry for every weight, day and age, truncated toward zero", () => {
    const select = postgres.prepare<[number, number, number], { carried: number }>('SELECT recommendation_carry(?, ?, ?) AS carried');
    const differing: string[] = [];
    let compared = 0;
    for (const weight of WEIGHTS) {
      for (const from of FROM_DAYS) {
        for (const age of AGES) {
          const expected = carry(weight, from, from + age);
          const carried = select.get(weight, from, from + age)!.carried;
          compared += 1;
          if (carried !== expected) differing.push(`carry(${weight}, ${from}, ${from + age}): PostgreSQL ${carried}, JavaScript ${expected}`);
        }
      }
    }
    expect(compared).toBe(WEIGHTS.length * FROM_DAYS.length * AGES.length);
    expect(differing).toEqual([]);
  });

  it('gives nothing for days too far apart for a bigint to hold their difference, as JavaScript', () => {
    const select = postgres.prepare<[number, number, number], { carried: number }>('SELECT recommendation_carry(?, ?, ?) AS carried');
    expect(select.get(1000, -(2 ** 62), 2 ** 62)!.carried).toBe(carry(1000, -(2 ** 62), 2 ** 62));
    expect(select.get(1000, 2 ** 62, -(2 ** 62))!.carried).toBe(carry(1000, 2 ** 62, -(2 ** 62)));
  });

  it("sums a customer's weights kept as of different days to the same integers on both engines", () => {
    const weightsOn = (db: Db) => {
      const repo = new ModelAccumulatorsRepo(db);
      db.transaction(() => {
        const add = (customerId: string, asOfDay: number, billsWeight: number, weights: [string, number][]) =>
          repo.addCustomerWeights([{ customerId, asOfDay, billsWeight, weights }]);
        add('c1', 19_800, 1000, [['p:a', 1000]]);
        add('c1', 19_845, 1000, [
          ['p:a', 1000],
          ['p:b', 1000],
        ]);
        add('c1', 19_700, -707, [['p:b', 333]]);
        add('c1', 21_000, 1000, [['p:c', 1000]]);
        add('c2', 19_900, 12_345, [['p:a', -12_345]]);
      })();
      return {
        profiles: db.prepare('SELECT customer_id, as_of_day, bills_weight FROM recommendation_profiles ORDER BY customer_id').all(),
        affinities: db.prepare('SELECT customer_id, key, weight, as_of_day FROM recommendation_affinities ORDER BY customer_id, key').all(),
      };
    };
    const onSqlite = weightsOn(sqlite);
    expect(onSqlite.profiles).toHaveLength(2);
    expect(weightsOn(postgres)).toEqual(onSqlite);
  });
});
