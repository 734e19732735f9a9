/**
 * The checkout bench's baselines: the least a cash-desk answer can cost here — parse a
 * JSON body, one indexed card lookup in the same SQLite file, a 1 KB JSON answer — served
 * by bare node:http (`node`) or by a bare express 5 endpoint (`express`).
 * Usage: node --import tsx test/bench/baseline-server.ts node|express DATABASE
 */
import Database from 'better-sqlite3';
import express from 'express';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const [kind, file] = process.argv.slice(2) as [string, string];
const db = new Database(file, { readonly: true });
const byCard = db.prepare<[string], { customer_id: string }>('SELECT customer_id FROM cards WHERE card_number = ?');
const padding = 'x'.repeat(900);

function answer(body: unknown): string {
  const card = (body as { card_number?: string }).card_number ?? '';
  return JSON.stringify({ data: { customer_id: byCard.get(card)?.customer_id ?? null, padding } });
}

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
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(answer(JSON.parse(text)));
        });
      }).listen(0, '127.0.0.1');

server.on('listening', () => {
  process.stdout.write(`serving http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
