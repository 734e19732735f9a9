/**
 * The benchmarks' baselines: the least an answer can cost here.
 * - `node`, `express` (the checkout bench): parse a JSON body, one indexed card lookup in the
 *   same SQLite file, a 1 KB JSON answer, served by bare node:http or by a bare express 5
 *   endpoint.
 * - `write` (the fleet and checkout benches): bare node:http parses a JSON body and commits it
 *   at `synchronous=FULL` into a WAL file of its own, one row in each of PAGES tables (24
 *   unless given), so that the commit writes the pages a send-purchase writes
 *   (test/bench/README.md, "pages a send-purchase writes"), and answers 201 with a small JSON.
 *   No validation, no ledger, no sync.
 * Usage: node --import tsx test/bench/baseline-server.ts node|express|write DATABASE [PAGES]
 */
import Database from 'better-sqlite3';
import express from 'express';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const [kind, file, pages] = process.argv.slice(2) as [string, string, string | undefined];
const WRITTEN_PAGES = Number(pages ?? 24);

/** The card lookup's answer. */
function lookup(): (body: unknown) => string {
  const db = new Database(file, { readonly: true });
  const byCard = db.prepare<[string], { customer_id: string }>('SELECT customer_id FROM cards WHERE card_number = ?');
  const padding = 'x'.repeat(900);
  return (body) => {
    const card = (body as { card_number?: string }).card_number ?? '';
    return JSON.stringify({ data: { customer_id: byCard.get(card)?.customer_id ?? null, padding } });
  };
}

/** The FULL commit's answer. */
function write(): (body: unknown) => string {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  const inserts = Array.from({ length: WRITTEN_PAGES }, (_, table) => {
    db.exec(`CREATE TABLE IF NOT EXISTS t${table} (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`);
    return db.prepare<[string]>(`INSERT INTO t${table} (body) VALUES (?)`);
  });
  const commit = db.transaction((text: string) => {
    for (const insert of inserts) insert.run(text);
  });
  return (body) => {
    commit(JSON.stringify(body).slice(0, 200));
    return '{"data":{"ok":true}}';
  };
}

const answer = kind === 'write' ? write() : lookup();
const status = kind === 'write' ? 201 : 200;

const server =
  kind === 'express'
    ? express()
        .use(express.json())
        .post('/lookup', (request, response) => {
          response.type('application/json').send(answer(request.body));
        })
        .listen(0, '127.0.0.1')
    : createServer((request, response) => {
        let text = '';
        request.on('data', (chunk: Buffer) => (text += chunk.toString()));
        request.on('end', () => {
          const body = answer(JSON.parse(text));
          response.writeHead(status, { 'content-type': 'application/json' });
          response.end(body);
        });
      }).listen(0, '127.0.0.1');

server.on('listening', () => {
  process.stdout.write(`serving http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
