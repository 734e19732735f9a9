/**
 * The soak's baseline (fleet.bench.ts): the least a send-purchase's commit can cost here —
 * bare node:http parses a JSON body and commits it at `synchronous=FULL` into a WAL file of
 * its own, one row in each of 24 tables, so that the commit writes the 24 pages a
 * send-purchase writes (test/bench/README.md, "pages a send-purchase writes") — and answers
 * a small JSON. No express, no validation, no ledger, no sync.
 * Usage: node --import tsx test/bench/write-baseline-server.ts DATABASE
 */
import Database from 'better-sqlite3';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const PAGES = 24;
const [file] = process.argv.slice(2) as [string];
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
const inserts = Array.from({ length: PAGES }, (_, table) => {
  db.exec(`CREATE TABLE IF NOT EXISTS t${table} (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`);
  return db.prepare<[string]>(`INSERT INTO t${table} (body) VALUES (?)`);
});
const commit = db.transaction((body: string) => {
  for (const insert of inserts) insert.run(body);
});

const server = createServer((request, response) => {
  let text = '';
  request.on('data', (chunk: Buffer) => (text += chunk.toString()));
  request.on('end', () => {
    commit(JSON.stringify(JSON.parse(text)).slice(0, 200));
    response.writeHead(201, { 'content-type': 'application/json' });
    response.end('{"data":{"ok":true}}');
  });
}).listen(0, '127.0.0.1');

server.on('listening', () => {
  process.stdout.write(`serving http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
