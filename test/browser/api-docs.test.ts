/**
 * `/docs` in a real browser: headless Chromium (Debian's `chromium`, driven by playwright-core)
 * loads the page a store serves, whose Swagger UI fetches `/openapi.json` and draws the
 * enterprise interface's operations, accept-payment among them. A screenshot of the page is
 * written to a temp folder named in the test's output.
 */
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

const CHROMIUM = '/usr/bin/chromium';
const screenshots = mkdtempSync(join(tmpdir(), 'loyaltyd-docs-screens-'));

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (npm test installs it when run as root)`);
  server = await startTestServer();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'], headless: true, timeout: 30_000 });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  process.stdout.write(`API document screenshot in ${screenshots}\n`);
});

describe('/docs in a browser', () => {
  it('renders the API document and lists accept-payment', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(request.url()));
    page.on('pageerror', (error) => failed.push(error.message));
    await page.goto(`${server.url}/docs`);
    const operation = page.locator('.opblock-summary-path', { hasText: '/purchases/actions/accept-payment' }).first();
    await operation.waitFor({ timeout: 30_000 });
    await operation.scrollIntoViewIfNeeded();
    expect(await page.locator('.opblock').count()).toBeGreaterThan(50);
    expect(failed).toEqual([]);
    const file = join(screenshots, 'docs.png');
    await page.screenshot({ path: file });
    expect(statSync(file).size).toBeGreaterThan(10_000);
  }, 60_000);
});
