/**
 * What `npm start` serves (`serve --demo --showcase`): the demo chain and the showcase beside
 * it show every resource — 30 products in groups and brands, 20 customers with cards and
 * bills, events with property records, a reservation source, purchase-item types, a reward
 * that turns into a voucher — and the README walk-through answers as printed on it, since
 * the showcase touches none of the demo's records.
 */
import { execFile, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../src/demo/demo.js';
import { loadShowcase } from '../../src/demo/showcase.js';
import { BIN, cliEnv } from '../support/cli.js';
import { bearer, call, demoPosLogin, startTestServer, tempDir, type TestServer } from '../support/server.js';

let server: TestServer;
let pos: Record<string, string>;
const get = async (path: string) => {
  const response = await call('GET', `${server.api('enterprise')}${path}`, { headers: pos });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data;
};

beforeAll(async () => {
  server = await startTestServer();
  loadShowcase(server.app);
  // A second start with --showcase loads nothing twice.
  loadShowcase(server.app);
  pos = await demoPosLogin(server);
});
afterAll(() => server.close());

describe('the showcase beside the demo chain', () => {
  it('shows 30 products in groups and brands, 20 customers with cards and bills, and events with property records', async () => {
    const products = (await get('/products?count=1000')).products as { product_group_id: string; product_brand_id: string | null }[];
    expect(products).toHaveLength(30);
    expect(products.every((product) => product.product_group_id && product.product_brand_id)).toBe(true);
    expect((await get('/product-groups')).total_items).toBe(5);
    expect((await get('/product-brands')).total_items).toBe(5);
    const customers = (await get('/customers?count=1000')).customers as { customer_id: string }[];
    expect(customers).toHaveLength(20);
    const cards = (await get('/cards?count=1000')).cards as { customer_id: string }[];
    expect(new Set(cards.map((card) => card.customer_id))).toEqual(new Set(customers.map((customer) => customer.customer_id)));
    const buyers = new Set(
      ((await get('/purchases?count=1000')).purchases as { customer_id: string | null }[]).map((purchase) => purchase.customer_id),
    );
    expect(customers.filter((customer) => !buyers.has(customer.customer_id)).map((customer) => customer.customer_id)).toEqual([DEMO_IDS.customerEva]);
    const events = (await get('/events?count=1000')).events as { event_id: string }[];
    expect(events.length).toBeGreaterThanOrEqual(4);
    expect((await get(`/events/${events[0]!.event_id}/property-records`)).total_items).toBe(1);
    expect((await get('/event-properties')).total_items).toBe(2);
    expect((await get('/product-reservation-sources')).total_items).toBeGreaterThan(0);
    expect((await get('/purchase-item-types')).total_items).toBeGreaterThan(0);
  });

  it('gives a showcase customer the points their bills earned, and a reward they can turn into a voucher', async () => {
    const customer = ((await get('/customers?count=1000')).customers as { customer_id: string }[]).find(
      (one) => !Object.values(DEMO_IDS).includes(one.customer_id),
    )!;
    const overview = await get(`/wallet/actions/points-overview?customer_id=${customer.customer_id}`);
    expect(overview.available_points).toBeGreaterThan(0);
    const voucher = await call('POST', `${server.api('enterprise')}/rewards/de000000000000000000000601/actions/create-voucher`, {
      headers: pos,
      body: { customer_id: DEMO_IDS.customerJana },
    });
    expect(voucher.status, JSON.stringify(voucher.body)).toBe(201);
  });
});

describe('the README walk-through on the showcase', () => {
  let fresh: TestServer;
  beforeAll(async () => {
    fresh = await startTestServer();
    loadShowcase(fresh.app);
  });
  afterAll(() => fresh.close());

  it('answers as printed', async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const script = /## Walk-through on the demo[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)![1]!.replaceAll('http://127.0.0.1:8080', fresh.url);
    const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script]);
    expect(stdout).not.toContain('"error"');
    expect(stdout).toContain('"credit_points_of_this_transaction":20,"total_credit_points":170,"total_credit":171.63');
    expect(stdout).toContain(
      '{"data":{"recommended_products_list":["de000000000000000000000303","de000000000000000000000306","de000000000000000000000301"],"total_items":3}}',
    );
  });
});

describe('serve --demo --showcase, as npm start runs it', () => {
  it('serves the showcase and stops cleanly', async () => {
    const dataDir = tempDir();
    const child = spawn(process.execPath, [BIN, 'serve', '--mode', 'store', '--demo', '--showcase', '--port', '0', '--data-dir', dataDir], {
      env: cliEnv(),
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const found = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (found) resolve(found[1]!);
        });
        child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
      });
      const login = await call('POST', `${url}/rest-api/enterprise-interface/v1.0/users/actions/login`, {
        body: {
          user_external_application_id: demoCredentials.external_application_id,
          login: demoCredentials.pos_login,
          password: demoCredentials.pos_password,
        },
      });
      const products = await call('GET', `${url}/rest-api/enterprise-interface/v1.0/products`, {
        headers: bearer(login.body.data.bearer_token as string),
      });
      expect(products.body.data.total_items).toBe(30);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
