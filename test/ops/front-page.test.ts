/**
 * `GET /`, the address `npm start` prints, names where things are: a small HTML page whose
 * links open, or the same as JSON for a caller asking for JSON.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ demo: false });
});
afterAll(() => server?.close());

describe('GET /', () => {
  it('answers a small HTML page naming both API base paths, /docs, /status and /health, each link of which answers', async () => {
    const response = await fetch(`${server.url}/`, { headers: { accept: 'text/html,*/*' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    for (const named of ['/rest-api/enterprise-interface/v1.0', '/rest-api/customer-interface/v1.0', 'store mode']) expect(html).toContain(named);
    const links = [...html.matchAll(/href="([^"]+)"/g)].map((match) => match[1]);
    expect(links).toEqual(['/docs', '/openapi.json', '/status', '/health']);
    for (const link of links) expect((await fetch(`${server.url}${link}`)).status, link).toBe(200);
  });

  it('answers the same as JSON for Accept: application/json', async () => {
    const response = await call('GET', `${server.url}/`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      name: 'loyaltyd',
      mode: 'store',
      interfaces: [
        { name: 'enterprise', base_path: '/rest-api/enterprise-interface/v1.0' },
        { name: 'customer', base_path: '/rest-api/customer-interface/v1.0' },
      ],
      docs: '/docs',
      openapi: '/openapi.json',
      status: '/status',
      health: '/health',
    });
  });

  it('a browser without an Accept header gets the page too; a POST to / is still 404', async () => {
    expect((await fetch(`${server.url}/`)).headers.get('content-type')).toMatch(/^text\/html/);
    expect((await call('POST', `${server.url}/`, { body: {} })).status).toBe(404);
  });
});
