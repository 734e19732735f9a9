import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliJson } from '../support/cli.js';
import { call, demoPosLogin, startTestServer, tempDir } from '../support/server.js';

const ANA = 'aa0000000000000000000000a1';
let dataDir: string;

beforeAll(async () => {
  dataDir = tempDir();
  await runCliJson(['demo', '--data-dir', dataDir]);
});

describe('loyaltyd import', () => {
  it('loads NDJSON customers, reports each rejected line with its reason, and keeps going', async () => {
    const file = join(dataDir, 'customers.ndjson');
    writeFileSync(
      file,
      [
        JSON.stringify({ customer_id: ANA, customer: { personal_information: { first_name: 'Ana', email: 'ana@example.com' } }, customer_source: { customer_source_id: 'legacy-crm', external_id: 'L-1' } }),
        JSON.stringify({ customer: { personal_information: { first_name: 'Bob', email: 'not-an-email' } } }),
        'not json',
        '',
        JSON.stringify({ customer: { personal_information: { first_name: 'Cid', store_id: 'ffffffffffffffffffffffffff' } } }),
        JSON.stringify({ customer_id: ANA, customer: { personal_information: { first_name: 'Again' } } }),
        JSON.stringify({ customer: { personal_information: { first_name: 'Dan' } }, password: 'secret-password' }),
        JSON.stringify({ customer: { personal_information: { first_name: 'Eve', gender: 2 } } }),
      ].join('\n'),
    );
    const result = await runCli(['import', 'customers', file, '--data-dir', dataDir, '--json', '--batch-size', '2']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ resource: 'customers', read: 7, imported: 2, rejected: 5 });
    expect(result.stderr.trim().split('\n')).toEqual([
      `${file}:2: customer.personal_information.email: invalid_value_format`,
      expect.stringMatching(new RegExp(`^${file}:3: the line is not valid JSON`)),
      `${file}:5: customer.personal_information.store_id: not_found`,
      `${file}:6: customer_id: already_exists`,
      `${file}:7: password: not_allowed_value`,
    ]);
  });

  it('loads CSV cards with dotted headers and quoted fields; the imported data answers over HTTP', async () => {
    const file = join(dataDir, 'cards.csv');
    writeFileSync(file, `card.customer_id,card.card_number,card.card_type_id\n${ANA},777001,plastic\n${ANA},"777,002","virtual ""app"""\nffffffffffffffffffffffffff,777003,x\n`);
    const result = await runCliJson(['import', 'cards', file, '--data-dir', dataDir]);
    expect(result).toMatchObject({ read: 3, imported: 2, rejected: 1 });
    const server = await startTestServer({ dataDir, demo: false });
    try {
      const auth = await demoPosLogin(server);
      const cards = await call('GET', `${server.api('enterprise')}/cards?customer_id=${ANA}&sort_field=card_number`, { headers: auth });
      expect(cards.body.data.cards.map((card: { card_number: string; card_type_id: string }) => [card.card_number, card.card_type_id])).toEqual([
        ['777,002', 'virtual "app"'],
        ['777001', 'plastic'],
      ]);
      const customers = await call('GET', `${server.api('enterprise')}/customers?customer_source_id=legacy-crm`, { headers: auth });
      expect(customers.body.data.customers.map((customer: { customer_id: string }) => customer.customer_id)).toEqual([ANA]);
    } finally {
      await server.close();
    }
  });

  it('reads numbers and booleans out of CSV cells where the schema wants them', async () => {
    const file = join(dataDir, 'typed.csv');
    writeFileSync(file, 'customer.personal_information.first_name,customer.personal_information.gender,customer.personal_information.phone\nFay,1,420600111222\n');
    expect(await runCliJson(['import', 'customers', file, '--data-dir', dataDir])).toMatchObject({ imported: 1, rejected: 0 });
  });

  it('names the resources it can import when asked for another', async () => {
    const result = await runCli(['import', 'stores', join(dataDir, 'cards.csv'), '--data-dir', dataDir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('resources: customers, cards');
  });
});

