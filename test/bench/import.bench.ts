/**
 * Master-data import (resources issue, acceptance): 1,000,000 generated customers (NDJSON)
 * and their cards (CSV) loaded by `loyaltyd import` from dist/, as an operator runs it, each
 * record validated by the API's schema and written through the write path in batched
 * transactions (target ≤ 60 s for both files, peak RSS of the importing process ≤ 300 MB).
 * Baseline: the same rows inserted bare, in 5,000-row transactions. Then, at 1M rows, the
 * query plans and per-call times of the POS's card lookup and a customer filter, to show
 * they stay index-backed. BENCH_IMPORT_CUSTOMERS shrinks the run.
 */
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { spawn } from 'node:child_process';
import { openDatabase } from '../../src/db/open.js';
import { databaseFile } from '../../src/root/node.js';
import { BIN } from '../support/cli.js';
import { benchDir } from '../support/cluster.js';
import { line, megabytes, peakRss, rate, seconds, verdict } from './report.js';

const COUNT = Number(process.env.BENCH_IMPORT_CUSTOMERS ?? 1_000_000);
const id = (i: number) => `c0${i.toString(16).padStart(24, '0')}`;

export async function run(): Promise<void> {
  const folder = benchDir('import');
  const customersFile = join(folder, 'customers.ndjson');
  const cardsFile = join(folder, 'cards.csv');
  await writeLines(customersFile, (i) =>
    JSON.stringify({
      customer_id: id(i),
      customer: {
        personal_information: {
          first_name: `First${i}`,
          last_name: `Last${i % 5000}`,
          email: `customer${i}@example.com`,
          phone: `+420${600_000_000 + i}`,
          language_id: 'cs',
        },
      },
    }),
  );
  await writeLines(cardsFile, (i) => `${id(i)},${5_000_000_000_000 + i},plastic`, 'card.customer_id,card.card_number,card.card_type_id');

  const dataDir = join(folder, 'data');
  const started = performance.now();
  const customers = await importWithCli('customers', customersFile, dataDir);
  const cards = await importWithCli('cards', cardsFile, dataDir);
  const ms = performance.now() - started;
  if (customers.rejected + cards.rejected > 0) throw new Error(`rejected: ${customers.rejected} customers, ${cards.rejected} cards`);
  const rows = customers.imported + cards.imported;
  line(`import ${COUNT.toLocaleString('en')} customers + cards`, `${seconds(ms)}  ${rate(rows, ms)}  (${verdict(ms, 60_000)} 60 s)`);
  line('  customers (NDJSON) / cards (CSV)', `${seconds(customers.ms)} / ${seconds(cards.ms)}`);
  const peak = Math.max(customers.peakRss, cards.peakRss);
  line('peak RSS of the importing process', `${megabytes(peak)}  (${verdict(peak, 300 * 1024 * 1024)} 300 MB)`);

  const baselineMs = bareInserts(join(folder, 'baseline.sqlite'));
  line('baseline: bare inserts, 5,000-row transactions', `${seconds(baselineMs)}  ${rate(2 * COUNT, baselineMs)}`);
  line('ratio import / baseline', `${(ms / baselineMs).toFixed(1)}×`);

  const db = openDatabase(databaseFile(dataDir));
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
  db.close();
}

interface CliImport {
  imported: number;
  rejected: number;
  ms: number;
  peakRss: number;
}

/** One `loyaltyd import` process; its peak RSS (VmHWM only grows) is sampled while it runs. */
async function importWithCli(resource: string, file: string, dataDir: string): Promise<CliImport> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, 'import', resource, file, '--data-dir', dataDir, '--json'], {
    env: { ...process.env, LOYALTYD_MODE: 'hub' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let peak = 0;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, peakRss(child.pid!));
    } catch {
      // the process has just exited; its last sample stands
    }
  }, 50);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearInterval(sampler);
  if (code !== 0) throw new Error(`loyaltyd import ${resource} exited with ${code}: ${output}`);
  const result = JSON.parse(output) as { imported: number; rejected: number };
  return { imported: result.imported, rejected: result.rejected, ms: performance.now() - started, peakRss: peak };
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
    for (let i = from; i < to; i += 1)
      customer.run(id(i), `First${i}`, `Last${i % 5000}`, `customer${i}@example.com`, `+420${600_000_000 + i}`, 'cs');
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
