import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpMetrics } from '../../src/ops/http-metrics.js';
import { createObserver } from '../../src/ops/request-log.js';
import { redactPath } from '../../src/http/redact-path.js';
import { schemaVersion } from '../../src/db/migrate.js';
import { DEMO_IDS } from '../../src/demo/demo.js';
import { call, demoPosLogin, demoToken, startTestServer, type TestServer } from '../support/server.js';
import { waitFor } from '../support/wait.js';
import { assignPoints } from '../support/sync-writes.js';
import { sqliteOnly } from '../../src/db/sqlite.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('/health and /metrics', () => {
  it('/health reports liveness, mode, schema version and the sync state without credentials', async () => {
    const response = await call('GET', `${server.url}/health`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'ok', mode: 'store', schema_version: schemaVersion() });
    expect(response.body.sync).toMatchObject({ mode: 'store', hub_url: null, outbox: { pending: expect.any(Number) } });
  });

  it('/health counts a queued write in the outbox of a standalone store', async () => {
    const before = (await call('GET', `${server.url}/health`)).body.sync.outbox.pending as number;
    expect((await assignPoints(server, await demoPosLogin(server), DEMO_IDS.customerEva, 5)).status).toBe(204);
    expect((await call('GET', `${server.url}/health`)).body.sync.outbox.pending).toBe(before + 1);
  });

  it('/metrics answers Prometheus text counting requests by route pattern and status', async () => {
    const auth = await demoPosLogin(server);
    await call('GET', `${server.api('enterprise')}/customer-external-applications`, { headers: auth });
    await call('GET', `${server.api('enterprise')}/customer-external-applications/ffffffffffffffffffffffffff`, { headers: auth });
    const response = await call('GET', `${server.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = response.body as string;
    expect(text).toMatch(
      /loyaltyd_http_requests_total\{method="GET",route="\/rest-api\/enterprise-interface\/v1\.0\/customer-external-applications",status="200"\} \d+/,
    );
    expect(text).toContain(
      'route="/rest-api/enterprise-interface/v1.0/customer-external-applications/:customer_external_application_id",status="404"',
    );
    expect(text).toContain('loyaltyd_http_request_duration_seconds_bucket');
    expect(text).toContain('loyaltyd_process_resident_memory_bytes');
  });
});

describe('request logs', () => {
  it('never carry a customer-interface token id or another secret-like path segment', () => {
    expect(redactPath('/rest-api/customer-interface/v1.0/tokens/0123abcd/actions/login')).toBe(
      '/rest-api/customer-interface/v1.0/tokens/:redacted/actions/login',
    );
    expect(redactPath('/rest-api/customer-interface/v1.0/Tokens/0123abcd')).toBe('/rest-api/customer-interface/v1.0/Tokens/:redacted');
    expect(redactPath('/rest-api/customer-interface/v1.0/tokens')).toBe('/rest-api/customer-interface/v1.0/tokens');
    expect(redactPath('/password-setup/abc')).toBe('/password-setup/:redacted');
    expect(redactPath(`/anything/${'f'.repeat(40)}/x`)).toBe('/anything/:redacted/x');
    expect(redactPath('/rest-api/enterprise-interface/v1.0/customers/ffffffffffffffffffffffffff')).toBe(
      '/rest-api/enterprise-interface/v1.0/customers/ffffffffffffffffffffffffff',
    );
  });

  it('are one line a request at info, with its id, route path and status, and none at warn', async () => {
    for (const level of ['info', 'warn'] as const) {
      const lines: Record<string, unknown>[] = [];
      const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(JSON.parse(chunk.toString())), done()) });
      const observe = createObserver(
        pino({ level }, sink),
        createHttpMetrics(() => 0),
      );
      // Listening after the observer, this hears the finish once the observer has logged it.
      let finished: Promise<void> | undefined;
      const http = createServer((request, response) => {
        observe(request, response, '127.0.0.1', () => '/tokens/:token_id');
        finished = new Promise((resolve) => response.once('finish', () => resolve()));
        response.writeHead(201).end();
      }).listen(0, '127.0.0.1');
      await new Promise((resolve) => http.once('listening', resolve));
      try {
        const response = await fetch(
          `http://127.0.0.1:${(http.address() as AddressInfo).port}/rest-api/customer-interface/v1.0/tokens/secret-id?x=1`,
          { method: 'POST' },
        );
        expect(response.status).toBe(201);
        await finished;
        const requestId = response.headers.get('x-request-id');
        expect(lines).toEqual(
          level === 'info'
            ? [
                expect.objectContaining({
                  requestId,
                  method: 'POST',
                  path: '/rest-api/customer-interface/v1.0/tokens/:redacted',
                  status: 201,
                  ip: '127.0.0.1',
                }),
              ]
            : [],
        );
      } finally {
        http.close();
      }
    }
  });
});

describe('the logs of a real node', () => {
  let logged: TestServer;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(JSON.parse(chunk.toString())), done()) });
    logged = await startTestServer({ log: pino({ level: 'info' }, sink) });
  });
  afterAll(() => logged.close());

  it('show no token id, in a request line in any letter case nor in the error line of a 500', async () => {
    const { tokenId, headers } = await demoToken(logged);
    const path = `${logged.api('customer')}/tokens/${tokenId}`;
    expect((await call('PUT', path, { headers, body: { setup: { language_id: 'cs' } } })).status).toBe(204);
    // Not a route, yet a path a client may send with its token in it.
    expect((await call('PUT', path.replace('/tokens/', '/TOKENS/'), { headers, body: { setup: { language_id: 'en' } } })).status).toBe(404);
    // A write the database refuses is an unexpected error: logged with the request's path.
    sqliteOnly(logged.app.node.db, 'this test').pragma('query_only = 1');
    try {
      expect((await call('PUT', path, { headers, body: { setup: { language_id: 'de' } } })).status).toBe(500);
    } finally {
      sqliteOnly(logged.app.node.db, 'this test').pragma('query_only = 0');
    }
    await waitFor(
      'the three PUT requests to be logged',
      () => lines.filter((line) => line.method === 'PUT' && line.status !== undefined).length >= 3,
    );
    const failed = lines.find((line) => line.msg === 'request failed');
    expect(failed).toMatchObject({ method: 'PUT', path: '/rest-api/customer-interface/v1.0/tokens/:redacted' });
    expect(lines.filter((line) => line.method === 'PUT' && line.status !== undefined).map((line) => [line.path, line.status])).toEqual([
      ['/rest-api/customer-interface/v1.0/tokens/:redacted', 204],
      ['/rest-api/customer-interface/v1.0/TOKENS/:redacted', 404],
      ['/rest-api/customer-interface/v1.0/tokens/:redacted', 500],
    ]);
    expect(JSON.stringify(lines)).not.toContain(tokenId);
  });
});
