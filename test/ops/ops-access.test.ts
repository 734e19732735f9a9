/**
 * `/metrics` and the detail of `/health` are for callers from `ops.open_addresses` (loopback
 * by default) and for callers with the operations token; anyone else reads `/health`'s status
 * alone, what a load balancer needs. The tests' requests come from 127.0.0.1, so a node whose
 * open addresses are none sees them as it sees a caller from anywhere else; a caller a proxy
 * on loopback forwards is judged by the address the proxy names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/core/config.js';
import { bearer, call, startTestServer, type TestServer } from '../support/server.js';
import { sqliteOnly } from '../../src/db/sqlite.js';

const TOKEN = 'c0ffee'.repeat(8);
let closed: TestServer;
let local: TestServer;

beforeAll(async () => {
  closed = await startTestServer({ config: { 'ops.open_addresses': [], 'ops.token': TOKEN } });
  local = await startTestServer();
});

afterAll(async () => {
  await closed?.close();
  await local?.close();
});

describe('/metrics and /health from outside the open addresses', () => {
  it('/health answers its status alone without the token, with the same status code', async () => {
    const response = await call('GET', `${closed.url}/health`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('/health answers degraded alone, 503, while the node cannot do its work', async () => {
    const db = sqliteOnly(closed.app.node.db, 'this test');
    db.pragma('query_only = ON');
    try {
      const response = await call('GET', `${closed.url}/health`);
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ status: 'degraded' });
    } finally {
      db.pragma('query_only = OFF');
    }
  });

  it('/metrics answers 401 in the API error shape without the token, and with a wrong one', async () => {
    for (const headers of [{}, bearer('x'.repeat(48)), bearer(`${TOKEN}0`), { authorization: `Basic ${TOKEN}` }]) {
      const response = await call('GET', `${closed.url}/metrics`, { headers });
      expect(response.status).toBe(401);
      expect(response.body.error).toMatchObject({ exception: 'unauthorized_exception', detail: expect.stringContaining('ops.token') });
      expect(JSON.stringify(response.body)).not.toContain('loyaltyd_http_requests_total');
    }
    const health = await call('GET', `${closed.url}/health`, { headers: bearer('x'.repeat(48)) });
    expect(health.body).toEqual({ status: 'ok' });
  });

  it('with the token as a Bearer token, /metrics and /health answer in full', async () => {
    const metrics = await call('GET', `${closed.url}/metrics`, { headers: bearer(TOKEN) });
    expect(metrics.status).toBe(200);
    expect(metrics.body).toContain('loyaltyd_http_requests_total');
    const health = await call('GET', `${closed.url}/health`, { headers: bearer(TOKEN) });
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', reasons: [], mode: 'store', node_id: closed.app.node.identity.nodeId });
  });

  it('a node with no token answers no caller from outside its open addresses in full', async () => {
    const tokenless = await startTestServer({ config: { 'ops.open_addresses': [] } });
    try {
      expect((await call('GET', `${tokenless.url}/metrics`)).status).toBe(401);
      expect((await call('GET', `${tokenless.url}/metrics`, { headers: bearer(TOKEN) })).status).toBe(401);
      expect((await call('GET', `${tokenless.url}/health`)).body).toEqual({ status: 'ok' });
    } finally {
      await tokenless.close();
    }
  });
});

describe('/metrics and /health from the open addresses', () => {
  it('a caller on loopback reads both in full without a token, by default', async () => {
    const metrics = await call('GET', `${local.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.body).toContain('loyaltyd_http_requests_total');
    expect((await call('GET', `${local.url}/health`)).body).toMatchObject({ status: 'ok', node_id: local.app.node.identity.nodeId });
  });

  it('a caller a proxy on loopback forwards from another address is judged by that address', async () => {
    const forwarded = { 'x-forwarded-for': '203.0.113.7' };
    expect((await call('GET', `${local.url}/metrics`, { headers: forwarded })).status).toBe(401);
    expect((await call('GET', `${local.url}/health`, { headers: forwarded })).body).toEqual({ status: 'ok' });
  });
});

describe('ops configuration', () => {
  it('takes open addresses as a comma-separated list from the environment', () => {
    const config = loadConfig({ env: { LOYALTYD_OPS__OPEN_ADDRESSES: '127.0.0.0/8, ::1,10.20.0.5' } });
    expect(config.ops.open_addresses).toEqual(['127.0.0.0/8', '::1', '10.20.0.5']);
  });

  it('refuses an entry that is no address or range, and a token under 32 characters, naming their keys', () => {
    expect(() => loadConfig({ env: {}, overrides: { 'ops.open_addresses': ['10.0.0.0/33'] } })).toThrow(
      /config key ops\.open_addresses\.0: not an address or CIDR range/,
    );
    expect(() => loadConfig({ env: {}, overrides: { 'ops.open_addresses': ['prometheus.lan'] } })).toThrow(ConfigError);
    expect(() => loadConfig({ env: { LOYALTYD_OPS_TOKEN: 'short' } })).toThrow(/config key ops\.token/);
  });
});
