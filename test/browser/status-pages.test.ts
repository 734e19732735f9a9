/**
 * The status pages in a real browser: headless Chromium (Debian's `chromium`, driven by
 * playwright-core) against a real hub and two real stores (`loyaltyd serve` processes, see
 * test/support/cluster.ts). The browser stands for head office's, reaching the hub through
 * a reverse proxy on the hub's machine (it sends X-Forwarded-For), so it must sign in. The
 * pages refresh by themselves: nothing here reloads them after signing in.
 *
 * Screenshots of the hub's page, a store's page at the hub and the store's own page are
 * written to a temp folder named in the test's output.
 *
 * Runs dist/ like every cluster test: `npm test` builds first; alone, `npm run build` before.
 */
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../src/demo/demo.js';
import { Cluster, posLogin, type StoreProcess } from '../support/cluster.js';
import { assignPoints } from '../support/sync-writes.js';
import { waitFor } from '../support/wait.js';
import { FaultyProxy } from '../support/faulty-proxy.js';
import { call } from '../support/server.js';

const CHROMIUM = '/usr/bin/chromium';
/** The hub marks a store silent after 7.2 s (offline.max_age_hours), so that a stopped store is marked within the test. */
const HUB_OFFLINE_HOURS = '0.002';
const STEP_MS = 25_000;
const HEAD_OFFICE = { 'x-forwarded-for': '203.0.113.7' };
const OUTBOX_COLUMN = 5;

let cluster: Cluster;
let proxy: FaultyProxy | undefined;
let browser: Browser;
let page: Page;
let prague: StoreProcess;
let brno: StoreProcess;
const screenshots = mkdtempSync(join(tmpdir(), 'loyaltyd-status-screens-'));

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (npm test installs it when run as root)`);
  cluster = await Cluster.start({
    stores: ['prague', 'brno'],
    // The hub on plain http: the browser here is a stock chromium, which trusts no CA a test
    // run makes; store-to-hub TLS is tested in test/sync.
    tls: false,
    hubEnv: { LOYALTYD_OFFLINE__MAX_AGE_HOURS: HUB_OFFLINE_HOURS },
    // brno reaches the hub through a proxy that can hold its pushes at a chosen moment.
    hubUrlFor: async (name, hub) => {
      if (name !== 'brno') return hub.url;
      proxy = await FaultyProxy.start({ target: hub.url });
      return proxy.url;
    },
  });
  prague = cluster.store('prague');
  brno = cluster.store('brno');
  await Promise.all([cluster.waitBootstrapped(prague), cluster.waitBootstrapped(brno)]);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'], headless: true, timeout: 30_000 });
  const context = await browser.newContext({ extraHTTPHeaders: HEAD_OFFICE, viewport: { width: 1500, height: 800 } });
  page = await context.newPage();
  page.setDefaultTimeout(STEP_MS);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await cluster?.close();
  await proxy?.close();
});

const storeRow = (name: string) =>
  page.locator('#stores tbody tr').filter({ has: page.locator('td:first-child', { hasText: new RegExp(`^${name}$`) }) });
const cellText = (name: string, column: number) => storeRow(name).locator(`td:nth-child(${column})`).innerText();

async function screenshot(file: string): Promise<void> {
  const path = join(screenshots, file);
  await page.screenshot({ path, fullPage: true });
  expect(statSync(path).size, path).toBeGreaterThan(1000);
}

describe("the hub's status page in a browser", () => {
  it('signs in as an enterprise user and sees both stores, sortable', async () => {
    await page.goto(`${cluster.hub.url}/status`);
    expect(new URL(page.url()).pathname).toBe('/status/login');
    await page.fill('input[name="user_external_application_id"]', demoCredentials.external_application_id);
    await page.fill('input[name="login"]', demoCredentials.pos_login);
    await page.fill('input[name="password"]', demoCredentials.pos_password);
    await Promise.all([page.waitForURL(`${cluster.hub.url}/status`), page.click('button[type="submit"]')]);
    const cookies = await page.context().cookies();
    expect(cookies).toContainEqual(expect.objectContaining({ name: 'loyaltyd_status', httpOnly: true, sameSite: 'Strict', path: '/status' }));

    await expect.poll(() => page.locator('#stores tbody tr td:first-child').allInnerTexts(), { timeout: STEP_MS }).toEqual(['brno', 'prague']);
    await expect.poll(() => cellText('prague', 2), { timeout: STEP_MS }).toBe('ok');
    await expect.poll(() => cellText('brno', 2), { timeout: STEP_MS }).toBe('ok');
    await page.click('#stores thead th:first-child');
    await page.click('#stores thead th:first-child');
    expect(await page.locator('#stores tbody tr td:first-child').allInnerTexts()).toEqual(['prague', 'brno']);
    await screenshot('hub-status.png');
    // Marks this document: a reload would lose it.
    await page.evaluate('window.notReloaded = true');
  }, 60_000);

  it('marks a stopped store once it is silent past the offline age, and shows its outbox depth change after a write at it', async () => {
    await brno.stop();
    await expect.poll(() => storeRow('brno').getAttribute('data-mark'), { timeout: STEP_MS }).toBe('silent');
    expect(await cellText('brno', 2)).toMatch(/^silent /);
    expect(await storeRow('prague').getAttribute('data-mark')).toBeNull();
    await screenshot('hub-status-store-silent.png');

    // brno comes back; its pushes reach the hub (which hears its report) but their answers wait.
    proxy!.hold({ method: 'POST', path: /^\/sync\/v1\/commands/ });
    await brno.start();
    await expect.poll(() => storeRow('brno').getAttribute('data-mark'), { timeout: STEP_MS }).toBeNull();
    expect(await cellText('brno', OUTBOX_COLUMN)).toBe('0');
    expect((await assignPoints(brno, await posLogin(brno), DEMO_IDS.customerEva, 5)).status).toBe(204);
    await expect.poll(() => cellText('brno', OUTBOX_COLUMN), { timeout: STEP_MS }).toBe('1');
    proxy!.release();
    await expect.poll(() => cellText('brno', OUTBOX_COLUMN), { timeout: STEP_MS }).toBe('0');
    expect(await page.evaluate('window.notReloaded')).toBe(true);
  }, 90_000);

  it("shows, on the store's page, the conflict of the same points spent at both stores", async () => {
    const [atPrague, atBrno] = await Promise.all([posLogin(prague), posLogin(brno)]);
    const reduce = (store: StoreProcess, auth: Record<string, string>) =>
      call('POST', `${store.api('enterprise')}/points/actions/reduce-points`, {
        headers: auth,
        body: { customer_id: DEMO_IDS.customerJana, amount: 200 },
      });
    // Jana holds 250 points; brno's redemption waits at the proxy while prague, not knowing it, redeems too.
    proxy!.hold({ method: 'POST', path: /^\/sync\/v1\/commands/, request: true });
    expect((await reduce(brno, atBrno)).status).toBe(204);
    await waitFor("brno's push to be held", () => proxy!.held === 1, { intervalMs: 20 });
    expect((await reduce(prague, atPrague)).status).toBe(204);
    proxy!.release();

    await Promise.all([page.waitForURL(`${cluster.hub.url}/status/stores/brno`), storeRow('brno').locator('a').click()]);
    const conflict = page.locator('#conflicts tbody tr').filter({ hasText: 'points_overspent' });
    await expect.poll(() => conflict.count(), { timeout: STEP_MS }).toBe(1);
    expect(await conflict.innerText()).toContain(DEMO_IDS.customerJana);
    await expect.poll(() => page.locator('#exchanges tbody tr').filter({ hasText: 'push' }).count(), { timeout: STEP_MS }).toBeGreaterThan(0);
    await screenshot('hub-store-brno.png');

    // The store's own page, read on its machine: no sign-in from loopback.
    const local = await browser.newPage();
    try {
      await local.goto(`${brno.url}/status`);
      expect(new URL(local.url()).pathname).toBe('/status');
      await expect.poll(() => local.locator('#conflicts tbody tr').filter({ hasText: 'points_overspent' }).count(), { timeout: STEP_MS }).toBe(1);
      expect(await local.locator('#sync').innerText()).toContain('reachable');
      await local.screenshot({ path: join(screenshots, 'store-brno.png'), fullPage: true });
    } finally {
      await local.close();
    }
    process.stdout.write(`status page screenshots in ${screenshots}\n`);
  }, 90_000);
});
