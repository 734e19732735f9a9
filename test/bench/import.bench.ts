/**
 * Master-data import (resources issue, acceptance): 1,000,000 generated customers (NDJSON)
 * and their cards (CSV) through `importFile`, each record validated by the API's schema and
 * written through the write path in batched transactions (target ≤ 60 s, RSS ≤ 300 MB).
 * Baseline: the same rows inserted bare, in 5,000-row transactions. Then, at 1M rows, the
 * query plans and per-call times of the POS's card lookup and a customer filter, to show
 * they stay index-backed. BENCH_IMPORT_CUSTOMERS shrinks the run.
 */
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import pino from 'pino';
import { createApp } from '../../src/app.js';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/open.js';
import { importFile } from '../../src/import/import-file.js';
import { importers } from '../../src/import/importers.js';
import { benchDir } from './cluster.js';
import { line, megabytes, peakRss, rate, seconds, verdict } from './report.js';

const COUNT = Number(process.env.BENCH_IMPORT_CUSTOMERS ?? 1_000_000);
const id = (i: number) => `c0${i.toString(16).padStart(24, '0')}`;

export async function run(): Promise<void> {
  const folder = benchDir('import');
  const customersFile = join(folder, 'customers.ndjson');
  const cardsFile = join(folder, 'cards.csv');
  await writeLines(customersFile, (i) =>
    JSON.stringify({ customer_id: id(i), customer: { personal_information: { first_name: `First${i}`, last_name: `Last${i % 5000}`, email: `customer${i}@example.com`, phone: `+420${600_000_000 + i}`, language_id: 'cs' } } }),
  );
  await writeLines(cardsFile, (i) => `${id(i)},${5_000_000_000_000 + i},plastic`, 'card.customer_id,card.card_number,card.card_type_id');

  const config = loadConfig({ env: {}, overrides: { mode: 'hub', data_dir: join(folder, 'data') } });
  const app = createApp({ config, clock: systemClock, log: pino({ level: 'silent' }) });
  const available = importers(app, config);
  const started = performance.now();
  const customers = await importFile(app.node, available.customers!, customersFile, 'ndjson');
  const cards = await importFile(app.node, available.cards!, cardsFile, 'csv');
  const ms = performance.now() - started;
  if (customers.rejected + cards.rejected > 0) throw new Error(`rejected: ${JSON.stringify([customers.rejections[0], cards.rejections[0]])}`);
  const rows = customers.imported + cards.imported;
  line(`import ${COUNT.toLocaleString('en')} customers + cards`, `${seconds(ms)}  ${rate(rows, ms)}  (${verdict(ms, 60_000)} 60 s)`);
  line('peak RSS of the importing process', `${megabytes(peakRss())}  (target ≤ 300 MB)`);

  const baselineMs = bareInserts(join(folder, 'baseline.sqlite'));
  line('baseline: bare inserts, 5,000-row transactions', `${seconds(baselineMs)}  ${rate(2 * COUNT, baselineMs)}`);
  line('ratio import / baseline', `${(ms / baselineMs).toFixed(1)}×`);

  const db = app.node.db;
  for (const [label, sql, param] of [
    ['GET /cards?card_number=', 'SELECT id FROM cards WHERE card_number = ?', String(5_000_000_000_000 + Math.floor(COUNT / 2))],
    ['GET /customers?email=', 'SELECT c.id FROM customers c WHERE c.email = ? COLLATE NOCASE', `customer${Math.floor(COUNT / 3)}@example.com`],
    ['GET /customers?last_name=', 'SELECT c.id FROM customers c WHERE c.last_name = ? ORDER BY c.id LIMIT 100', 'Last42'],
  ] as const) {
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(param) as { detail: string }[]).map((step) => step.detail).join('; ');
    const statement = db.prepare(sql);
    const calls = 10_000;
    const t0 = performance.now();
    for (let i = 0; i < calls; i += 1) statement.all(param);
    line(`${label} at ${COUNT.toLocaleString('en')} rows`, `${(((performance.now() - t0) * 1000) / calls).toFixed(1)} µs a call — ${plan}`);
  }
  app.close();
}

async function writeLines(file: string, make: (i: number) => string, header?: string): Promise<void> {
  const out = createWriteStream(file);
  if (header) out.write(`${header}\n`);
  for (let i = 0; i < COUNT; i += 1) {
    if (!out.write(`${make(i)}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

function bareInserts(file: string): number {
  const db = openDatabase(file);
  db.exec('CREATE TABLE customers (id TEXT PRIMARY KEY, first_name TEXT, last_name TEXT, email TEXT, phone TEXT, language_id TEXT)');
  db.exec('CREATE TABLE cards (id TEXT PRIMARY KEY, customer_id TEXT, card_number TEXT UNIQUE, card_type_id TEXT)');
  const customer = db.prepare('INSERT INTO customers VALUES (?, ?, ?, ?, ?, ?)');
  const card = db.prepare('INSERT INTO cards VALUES (?, ?, ?, ?)');
  const started = performance.now();
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i += 1) customer.run(id(i), `First${i}`, `Last${i % 5000}`, `customer${i}@example.com`, `+420${600_000_000 + i}`, 'cs');
  });
  const cards = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i += 1) card.run(`k${i}`, id(i), String(5_000_000_000_000 + i), 'plastic');
  });
  for (let from = 0; from < COUNT; from += 5000) batch(from, Math.min(COUNT, from + 5000));
  for (let from = 0; from < COUNT; from += 5000) cards(from, Math.min(COUNT, from + 5000));
  const ms = performance.now() - started;
  db.close();
  return ms;
}
