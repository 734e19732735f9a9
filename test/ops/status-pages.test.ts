/**
 * The status pages over HTTP: loopback callers read them as they are; a caller from
 * elsewhere (here a browser behind a reverse proxy on the node's machine, which names it in
 * X-Forwarded-For) signs in as an enterprise user and reads them with an HttpOnly,
 * SameSite=Strict session cookie. Everything a page shows is escaped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials } from '../../src/demo/demo.js';
import { call, startTestServer, type TestServer } from '../support/server.js';

let hub: TestServer;
let store: TestServer;
const REMOTE = { 'x-forwarded-for': '203.0.113.7' };
const HOSTILE_NAME = '<script>alert("x")</script>&';

beforeAll(async () => {
  hub = await startTestServer({ config: { mode: 'hub' } });
  store = await startTestServer();
  hub.app.services.nodes.add('prague');
  hub.app.services.nodes.add(HOSTILE_NAME);
});

afterAll(async () => {
  await hub?.close();
  await store?.close();
});

async function page(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { headers, redirect: 'manual' });
}

function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

async function signIn(server: TestServer, password = demoCredentials.pos_password): Promise<Response> {
  return fetch(`${server.url}/status/login`, {
    method: 'POST',
    headers: { ...REMOTE, 'content-type': 'application/x-www-form-urlencoded' },
    body: form({ user_external_application_id: demoCredentials.external_application_id, login: demoCredentials.pos_login, password }),
    redirect: 'manual',
  });
}

describe('who reads the status pages', () => {
  it("a caller on the node's own machine reads /status and its JSON without signing in", async () => {
    const response = await page(`${hub.url}/status`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(await response.text()).toContain('<table id="stores" class="sortable">');
    const json = await call('GET', `${hub.url}/status/json`);
    expect(json.status).toBe(200);
    expect(json.body.sections.map((section: { id: string }) => section.id)).toEqual(['hub', 'stores']);
  });

  it("a caller from elsewhere is sent to the sign-in form, and its JSON read is a 401 in the API's error shape", async () => {
    const response = await page(`${hub.url}/status`, REMOTE);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/status/login');
    const json = await call('GET', `${hub.url}/status/json`, { headers: REMOTE });
    expect(json.status).toBe(401);
    expect(json.body.error.exception).toBe('unauthorized_exception');
    expect((await page(`${hub.url}/status/stores/prague`, REMOTE)).status).toBe(303);
    const form = await page(`${hub.url}/status/login`, REMOTE);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('name="password" type="password"');
  });

  it('a wrong password answers the form again with 401 and sets no cookie', async () => {
    const response = await signIn(hub, 'not-the-password');
    expect(response.status).toBe(401);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await response.text()).toContain('role="alert"');
  });

  it('an empty form answers 400 and names what to fill in', async () => {
    const response = await fetch(`${hub.url}/status/login`, {
      method: 'POST',
      headers: { ...REMOTE, 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('Fill in the external application id');
  });

  it('an enterprise user signs in: an HttpOnly, SameSite=Strict cookie for /status opens the pages until signing out', async () => {
    const response = await signIn(hub);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/status');
    const cookie = response.headers.get('set-cookie')!;
    // Over https the cookie is also Secure: a browser never sends it in clear.
    const secure = hub.url.startsWith('https:') ? '; Secure' : '';
    expect(cookie).toMatch(new RegExp(`^loyaltyd_status=[^;]+; Path=/status; Max-Age=\\d+; HttpOnly; SameSite=Strict${secure}$`));
    const session = { ...REMOTE, cookie: cookie.split(';')[0]! };
    const opened = await page(`${hub.url}/status`, session);
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain('Sign out');
    expect((await call('GET', `${hub.url}/status/json`, { headers: session })).status).toBe(200);
    expect((await page(`${hub.url}/status/stores/prague`, session)).status).toBe(200);

    const out = await fetch(`${hub.url}/status/logout`, { method: 'POST', headers: session, redirect: 'manual' });
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toContain('loyaltyd_status=; Path=/status; Max-Age=0');
    expect((await page(`${hub.url}/status`, { ...REMOTE, cookie: 'loyaltyd_status=' })).status).toBe(303);
  });

  it('a cookie that is no session opens nothing', async () => {
    expect((await page(`${hub.url}/status`, { ...REMOTE, cookie: 'loyaltyd_status=forged' })).status).toBe(303);
    expect((await call('GET', `${hub.url}/status/json`, { headers: { ...REMOTE, cookie: 'loyaltyd_status=forged' } })).status).toBe(401);
  });
});

describe('what the pages show', () => {
  it('the hub lists every registered store, never seen yet, each with its own page', async () => {
    const view = (await call('GET', `${hub.url}/status/json`)).body;
    const stores = view.sections.find((section: { id: string }) => section.id === 'stores');
    const names = stores.rows.map((row: { cells: { text: string }[] }) => row.cells[0]!.text);
    expect(names).toEqual(expect.arrayContaining(['prague', HOSTILE_NAME]));
    const prague = stores.rows.find((row: { cells: { text: string }[] }) => row.cells[0]!.text === 'prague');
    expect(prague.cells[1].text).toBe('never seen');
    expect(prague.cells[0].href).toBe('/status/stores/prague');
    expect(prague.mark).toBeUndefined();
    const detail = await call('GET', `${hub.url}/status/stores/prague/json`);
    expect(detail.status).toBe(200);
    expect(detail.body.sections.map((section: { id: string }) => section.id)).toEqual(['store', 'exchanges', 'conflicts']);
  });

  it("a store name with markup in it is escaped on the hub's page and in its link", async () => {
    const html = await (await page(`${hub.url}/status`)).text();
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;');
    expect(html).not.toContain('<script>alert');
    expect(html).toContain(`href="/status/stores/${encodeURIComponent(HOSTILE_NAME).replace(/&/g, '&amp;')}"`);
    const detail = await page(`${hub.url}/status/stores/${encodeURIComponent(HOSTILE_NAME)}`);
    expect(detail.status).toBe(200);
    expect(await detail.text()).not.toContain('<script>alert');
  });

  it('pages carry a nonce Content-Security-Policy that allows their own script only, and are not cached', async () => {
    const response = await page(`${hub.url}/status`);
    const policy = response.headers.get('content-security-policy')!;
    const nonce = /script-src 'nonce-([^']+)'/.exec(policy)![1]!;
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(await response.text()).toContain(`<script nonce="${nonce}">`);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it("an unknown store's page answers 404", async () => {
    const response = await call('GET', `${hub.url}/status/stores/nowhere/json`);
    expect(response.status).toBe(404);
    expect(response.body.error.exception).toBeDefined();
  });

  it('a standalone store shows its outbox, offline limits in force, rounds and conflicts', async () => {
    const view = (await call('GET', `${store.url}/status/json`)).body;
    expect(view.sections.map((section: { id: string }) => section.id)).toEqual(['sync', 'limits', 'rounds', 'conflicts']);
    const sync = view.sections[0].items;
    expect(sync).toContainEqual({ label: 'Hub is', value: 'no hub configured (standalone)' });
    expect(sync).toContainEqual({ label: 'Outbox depth', value: expect.stringMatching(/^\d+$/) });
    expect(view.sections[1].items).toContainEqual({ label: 'Offline age', value: '24 h 0 min' });
    expect((await call('GET', `${store.url}/status/stores/prague/json`)).status).toBe(404);
  });
});
