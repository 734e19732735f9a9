/**
 * The README is checked against the code: its error-reason table against the catalogue in
 * src/core/errors.ts, and its curl walk-through run as printed against a real demo server.
 */
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../src/demo/demo.js';
import { EXCEPTIONS, REASONS } from '../../src/core/errors.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { foldedPoints, summedCredit } from '../support/ledger-oracle.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

function section(heading: string): string {
  const start = README.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README has no ${heading}`);
  const next = README.indexOf('\n## ', start + heading.length + 2);
  return README.slice(start, next < 0 ? undefined : next);
}

describe('README', () => {
  it('opens with the install-and-start and install-and-test commands', () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(README)![1]!;
    expect(firstBlock).toContain('npm ci && npm start');
    expect(firstBlock).toContain('npm ci && npm test');
  });

  it("says at once that npm test installs the Debian packages its tests need, as root, or names the apt-get line; CI runs exactly the README's command", () => {
    expect(README.slice(0, 800)).toMatch(
      /npm test` first checks for the Debian packages its tests need \(chromium at `\/usr\/bin\/chromium`, openssl,\nfaketime, postgresql, pgbackrest, libpq-dev\)/,
    );
    const scripts = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.test).toMatch(/^node test\/support\/preflight\.mjs && /);
    const ci = readFileSync(new URL('../../.ci/run', import.meta.url), 'utf8');
    expect(ci.trimEnd().split('\n').at(-1)).toBe('npm ci && npm test');
    expect(ci).not.toContain('apt-get install');
  });

  it('the test preflight, not run as root, stops at once naming the apt-get install line of what is missing', () => {
    // Without PATH, openssl is not found; as a user other than root nothing is installed.
    const preflight = fileURLToPath(new URL('../support/preflight.mjs', import.meta.url));
    const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const run = spawnSync(process.execPath, [preflight], { env: { PATH: '' }, encoding: 'utf8', timeout: 10_000, ...asUser });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^ {2}sudo apt-get install -y (\S+ )*openssl( \S+)*$/m);
    expect(run.stdout).toBe('');
  });

  it('lists exactly the reasons of the error catalogue, with their meanings', () => {
    const rows = [...section('## Errors').matchAll(/^\| `([a-z_]+)` \| (.+?) \|$/gm)].map((match) => [match[1], match[2]]);
    expect(Object.fromEntries(rows)).toEqual(REASONS);
  });

  it('lists exactly the exceptions of the catalogue, with their statuses', () => {
    const rows = [...section('## Errors').matchAll(/^\| (\d{3}) \| `([a-z_]+)` \|/gm)].map((match) => [match[2], Number(match[1])]);
    expect(Object.fromEntries(rows)).toEqual(EXCEPTIONS);
  });

  describe('walk-through', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer();
    });
    afterAll(() => server.close());

    it('works as printed against a demo server', async () => {
      const script = /```sh\n([\s\S]*?)```/.exec(section('## Walk-through on the demo'))![1]!.replaceAll('http://127.0.0.1:8080', server.url);
      const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script]);
      expect(stdout).not.toContain('"error"');
      expect(stdout).toContain('"customer_external_applications":[{"external_application_id":"de0000000000000000000000a1"');
      expect(stdout).toContain('{"data":{"customer_id":"de0000000000000000000000c1"}}');
      expect(stdout).toMatch(/"authentication_token":"\d{6}"/);
      expect(stdout.match(/"total_items":1/g)).toHaveLength(2);
      expect(stdout).toContain(
        '{"bill_item_id":"2","discount_code":"BAKERY-10","discount_value":"3.50","discount_percent":"10.00","description":"10 % off bakery"',
      );
      expect(stdout).toContain('"credit_points":100,"price_of_credit_points":50,"credit":30');
      expect(stdout).toContain('"credit_points_of_this_transaction":20,"total_credit_points":170,"total_credit":171.63');
      expect(stdout).toMatch(/\{"data":\{"purchase_id":"[0-9a-f]{26}"\}\}/);
      expect(stdout).toContain('{"data":{"earned_points":20,"used_credits":30,"used_points":100,"used_points_total":100,"used_vouchers":[]}}');
      expect(stdout).toContain(
        '{"data":{"recommended_products_list":["de000000000000000000000303","de000000000000000000000306","de000000000000000000000301"],"total_items":3}}',
      );
      // The return takes back the croissant's 7 points; the sale of beans earns 15, its cancellation takes them back.
      expect(stdout).toContain('{"data":{"earned_points":270,"redeemed_points":107,"available_points":163}}');
      expect(stdout).toContain('{"data":{"earned_points":285,"redeemed_points":122,"available_points":163}}');
      expect(stdout.match(/\{"data":\{"purchase_id":"[0-9a-f]{26}"\}\}/g)).toHaveLength(4);
      // What accept-payment announced is what send-purchase left, 200 − 30 + 1.63 of credit and
      // 250 − 100 + 20 points, less what the return took back: 0.70 and 7 points.
      const jana = DEMO_IDS.customerJana;
      expect(summedCredit(server.app.node.db, jana)).toBe(17_093);
      expect(foldedPoints(server.app.node.db, jana, Date.now())).toBe(163_000);
      const cancellation = server.app.node.db
        .prepare("SELECT cancels_purchase_id FROM purchases WHERE external_purchase_id = 'demo-3-cancel'")
        .get() as { cancels_purchase_id: string };
      const sale = server.app.node.db.prepare("SELECT id FROM purchases WHERE external_purchase_id = 'demo-3'").get() as { id: string };
      expect(cancellation.cancels_purchase_id).toBe(sale.id);
    });
  });
});
