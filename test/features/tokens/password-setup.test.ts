/**
 * send-password-setup-email (DESIGN §4): the customer gets a link with a one-time secret,
 * sent through SMTP when `mail.smtp_url` is set (a real receiver here), else written as an
 * .eml file to the spool folder; a store with a hub queues the request for the hub instead.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../../src/demo/demo.js';
import { expectError } from '../../support/expect-error.js';
import { call, demoToken, startTestServer, TestClock, type JsonResponse, type TestServer, type TestServerOptions } from '../../support/server.js';
import { mailHeader, mailText, startSmtpReceiver, unreachableSmtp, type SmtpReceiver } from '../../support/smtp.js';
import { sha256 } from '../../support/credentials.js';

const SETUP_URL = 'https://shop.example.test/account/set-password';
const JANA = demoCredentials.customer_email;
const PETR = 'petr.svoboda@example.com';
const NOW = Date.UTC(2026, 3, 1, 8, 0, 0);
const DAY_MS = 24 * 3_600_000;

const LINK = new RegExp(`${SETUP_URL.replace(/[./]/g, '\\$&')}\\?token=([0-9a-f]{64})`);

interface SetupRequestRow {
  id: string;
  customer_id: string;
  email: string;
  secret_hash: string;
  expires_at: string;
  sent_at: string | null;
}

/** A store's hub that does not answer: nothing listens on the discard port. */
const UNREACHABLE_HUB = { 'hub.url': 'http://127.0.0.1:9', 'node.name': 'store-offline', 'node.secret': 'offline-secret' };

function setupRequests(server: TestServer): SetupRequestRow[] {
  return server.app.node.db
    .prepare('SELECT id, customer_id, email, secret_hash, expires_at, sent_at FROM password_setup_requests ORDER BY id')
    .all() as SetupRequestRow[];
}

function outboxCount(server: TestServer): number {
  return (server.app.node.db.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number }).n;
}

async function requestSetup(server: TestServer, body: unknown): Promise<JsonResponse> {
  const token = await demoToken(server);
  return call('POST', `${server.api('customer')}/tokens/${token.tokenId}/actions/send-password-setup-email`, { headers: token.headers, body });
}

/** The secret of the setup link in a message text; fails the test when there is none. */
function secretOf(text: string): string {
  const match = LINK.exec(text);
  expect(match, `no setup link in:\n${text}`).not.toBeNull();
  return match![1]!;
}

let server: TestServer | undefined;
async function start(options: TestServerOptions = {}): Promise<TestServer> {
  server = await startTestServer({ clock: new TestClock(NOW), ...options, config: { 'mail.password_setup_url': SETUP_URL, ...options.config } });
  return server;
}
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('send-password-setup-email through SMTP', () => {
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
  });
  afterAll(() => smtp.close());
  afterEach(() => {
    smtp.received.length = 0;
  });

  it('answers 204 and the SMTP server receives one message to the customer with the setup link', async () => {
    const target = await start({ config: { 'mail.smtp_url': smtp.url } });
    const response = await requestSetup(target, { email: JANA });
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail!.to).toEqual([JANA]);
    expect(mail!.from).toBe('no-reply@loyaltyd.local');
    expect(mailHeader(mail!.raw, 'to')).toContain(JANA);
    expect(mailHeader(mail!.raw, 'subject')).toBe('Set your password');
    secretOf(mailText(mail!.raw));
  });

  it('records the request with the hash of the link secret, a 24-hour expiry and the time it was sent', async () => {
    const target = await start({ config: { 'mail.smtp_url': smtp.url } });
    await requestSetup(target, { email: JANA });
    const secret = secretOf(mailText(smtp.received[0]!.raw));
    expect(setupRequests(target)).toEqual([
      {
        id: expect.any(String),
        customer_id: DEMO_IDS.customerJana,
        email: JANA,
        secret_hash: sha256(secret),
        expires_at: new Date(NOW + DAY_MS).toISOString(),
        sent_at: new Date(NOW).toISOString(),
      },
    ]);
  });

  it('each request mails a fresh secret', async () => {
    const target = await start({ config: { 'mail.smtp_url': smtp.url } });
    await requestSetup(target, { email: JANA });
    await requestSetup(target, { email: JANA });
    const secrets = smtp.received.map((mail) => secretOf(mailText(mail.raw)));
    expect(secrets).toHaveLength(2);
    expect(secrets[0]).not.toBe(secrets[1]);
  });

  it('serves a customer who never had a password', async () => {
    const target = await start({ config: { 'mail.smtp_url': smtp.url } });
    expect((await requestSetup(target, { email: PETR })).status).toBe(204);
    expect(smtp.received.map((mail) => mail.to)).toEqual([[PETR]]);
    expect(setupRequests(target).map((row) => row.customer_id)).toEqual([DEMO_IDS.customerPetr]);
  });

  it("an e-mail of no customer answers as a customer's does, 204 with the same body, and nothing is sent", async () => {
    const target = await start({ config: { 'mail.smtp_url': smtp.url } });
    const unknown = await requestSetup(target, { email: 'nobody@example.com' });
    expect(smtp.received).toEqual([]);
    expect(setupRequests(target)).toEqual([]);
    const known = await requestSetup(target, { email: JANA });
    expect(unknown.status).toBe(204);
    expect([unknown.status, unknown.body]).toEqual([known.status, known.body]);
  });

  it('a malformed e-mail answers 400 invalid_value_format, a missing one required, and nothing is sent', async () => {
    const target = await start({ config: { 'mail.smtp_url': smtp.url } });
    const malformed = await requestSetup(target, { email: 'not-an-address' });
    expect(expectError(malformed, 400, 'invalid_params_exception').error_data.invalid_params).toEqual([
      expect.objectContaining({ name: 'email', reason: 'invalid_value_format', value: 'not-an-address' }),
    ]);
    const missing = await requestSetup(target, {});
    expect(expectError(missing, 400, 'invalid_params_exception').error_data.invalid_params).toEqual([
      expect.objectContaining({ name: 'email', reason: 'required' }),
    ]);
    expect(smtp.received).toEqual([]);
    expect(setupRequests(target)).toEqual([]);
  });

  it("a request on another token's path answers 403 and sends nothing", async () => {
    const target = await start({ config: { 'mail.smtp_url': smtp.url } });
    const mine = await demoToken(target);
    const theirs = await demoToken(target);
    const response = await call('POST', `${target.api('customer')}/tokens/${theirs.tokenId}/actions/send-password-setup-email`, {
      headers: mine.headers,
      body: { email: JANA },
    });
    expectError(response, 403, 'forbidden_exception');
    expect(smtp.received).toEqual([]);
  });

  it('is refused on the enterprise interface', async () => {
    const target = await start({ config: { 'mail.smtp_url': smtp.url } });
    const token = await demoToken(target);
    const response = await call('POST', `${target.api('enterprise')}/tokens/${token.tokenId}/actions/send-password-setup-email`, {
      body: { email: JANA },
    });
    expectError(response, 403, 'interface_not_allowed_exception');
    expect(smtp.received).toEqual([]);
  });

  it('a hub sends the mail itself and queues no command', async () => {
    const target = await start({ config: { mode: 'hub', 'mail.smtp_url': smtp.url } });
    expect((await requestSetup(target, { email: JANA })).status).toBe(204);
    expect(smtp.received).toHaveLength(1);
    expect(outboxCount(target)).toBe(0);
  });
});

describe('send-password-setup-email when the mail server fails', () => {
  it('an unreachable SMTP server answers 503 in the error envelope and the request stays unsent', async () => {
    const unreachable = await unreachableSmtp();
    try {
      const target = await start({ config: { 'mail.smtp_url': unreachable.url } });
      const response = await requestSetup(target, { email: JANA });
      const error = expectError(response, 503, 'service_unavailable_exception');
      expect(JSON.stringify(error)).not.toMatch(/ECONNRESET|ECONNREFUSED|at .*\.js/);
      expect(setupRequests(target).map((row) => row.sent_at)).toEqual([null]);
    } finally {
      await unreachable.close();
    }
  });

  it('an SMTP server refusing the recipient answers 503 too', async () => {
    const refusing = await startSmtpReceiver({ refuseRecipients: true });
    try {
      const target = await start({ config: { 'mail.smtp_url': refusing.url } });
      expectError(await requestSetup(target, { email: JANA }), 503, 'service_unavailable_exception');
      expect(refusing.received).toEqual([]);
    } finally {
      await refusing.close();
    }
  });
});

describe('send-password-setup-email without SMTP', () => {
  it('writes the message as an .eml file to <data_dir>/mail-spool', async () => {
    const target = await start();
    expect((await requestSetup(target, { email: JANA })).status).toBe(204);
    const spool = join(target.dataDir, 'mail-spool');
    const files = readdirSync(spool);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const raw = readFileSync(join(spool, files[0]!), 'utf8');
    expect(mailHeader(raw, 'to')).toBe(JANA);
    expect(mailHeader(raw, 'from')).toContain('no-reply@loyaltyd.local');
    expect(mailHeader(raw, 'subject')).toBe('Set your password');
    const secret = secretOf(mailText(raw));
    expect(setupRequests(target)).toEqual([expect.objectContaining({ secret_hash: sha256(secret), sent_at: new Date(NOW).toISOString() })]);
  });

  it('each message gets its own file', async () => {
    const target = await start();
    await requestSetup(target, { email: JANA });
    await requestSetup(target, { email: PETR });
    const spool = join(target.dataDir, 'mail-spool');
    const recipients = readdirSync(spool).map((file) => mailHeader(readFileSync(join(spool, file), 'utf8'), 'to'));
    expect(recipients.sort()).toEqual([JANA, PETR]);
  });

  it('writes to mail.spool_dir when it is set', async () => {
    const spool = mkdtempSync(join(tmpdir(), 'loyaltyd-spool-'));
    try {
      const target = await start({ config: { 'mail.spool_dir': spool } });
      expect((await requestSetup(target, { email: JANA })).status).toBe(204);
      expect(readdirSync(spool)).toHaveLength(1);
      expect(existsSync(join(target.dataDir, 'mail-spool'))).toBe(false);
    } finally {
      rmSync(spool, { recursive: true, force: true });
    }
  });
});

describe('send-password-setup-email at a store with a hub', () => {
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
  });
  afterAll(() => smtp.close());

  // The hub holds the secret it mails (DESIGN §5 "Credentials stay at the hub"): a store whose
  // hub does not answer makes no setup request of its own (test/sync/sync.test.ts: with its hub up).
  it('answers 503 naming the outage while its hub does not answer: sends no mail, spools none, stores and queues nothing', async () => {
    const target = await start({ config: { ...UNREACHABLE_HUB, 'mail.smtp_url': smtp.url } });
    const outboxBefore = outboxCount(target);
    const answer = await requestSetup(target, { email: JANA });
    expectError(answer, 503, 'service_unavailable_exception');
    expect(answer.body.error.detail).toContain('head office');
    expect(smtp.received).toEqual([]);
    expect(existsSync(join(target.dataDir, 'mail-spool'))).toBe(false);
    expect(setupRequests(target)).toEqual([]);
    expect(outboxCount(target)).toBe(outboxBefore);
  });

  it("answers an e-mail of no customer as it answers a customer's: the answer tells no one who is a customer", async () => {
    const target = await start({ config: UNREACHABLE_HUB });
    expectError(await requestSetup(target, { email: 'nobody@example.com' }), 503, 'service_unavailable_exception');
    expect(setupRequests(target)).toEqual([]);
  });
});

describe('send-password-setup-email is rate-limited', () => {
  const WINDOW_MS = 3_600 * 1000;
  const fromAddress = async (target: TestServer, email: string, address: string) => {
    const token = await demoToken(target);
    return call('POST', `${target.api('customer')}/tokens/${token.tokenId}/actions/send-password-setup-email`, {
      headers: { ...token.headers, 'x-forwarded-for': address },
      body: { email },
    });
  };

  it('beyond auth.password_setup_mails_per_customer to one e-mail answers 429 with Retry-After, for a customer and for no customer alike', async () => {
    const target = await start({ config: { 'auth.password_setup_mails_per_customer': 2 } });
    for (const email of [JANA, 'nobody@example.com']) {
      expect((await fromAddress(target, email, '203.0.113.1')).status).toBe(204);
      expect((await fromAddress(target, email.toUpperCase(), '203.0.113.2')).status).toBe(204);
      const refused = await fromAddress(target, email, '203.0.113.3');
      expect(expectError(refused, 429, 'too_many_requests_exception').error_data.retry_after).toBe(3_600);
      expect(refused.headers.get('retry-after')).toBe('3600');
    }
    expect(setupRequests(target)).toHaveLength(2);
    target.clock.advance(WINDOW_MS);
    expect((await fromAddress(target, JANA, '203.0.113.1')).status).toBe(204);
  });

  it('beyond auth.password_setup_mails_per_address from one address answers 429, whatever the e-mail', async () => {
    const target = await start({ config: { 'auth.password_setup_mails_per_address': 2 } });
    expect((await fromAddress(target, JANA, '203.0.113.1')).status).toBe(204);
    expect((await fromAddress(target, PETR, '203.0.113.1')).status).toBe(204);
    expectError(await fromAddress(target, 'nobody@example.com', '203.0.113.1'), 429, 'too_many_requests_exception');
    expect((await fromAddress(target, 'nobody@example.com', '203.0.113.2')).status).toBe(204);
  });
});

describe('send-password-setup-email', () => {
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
  });
  afterAll(() => smtp.close());

  const request = async (server: TestServer, email: string) => {
    const token = await demoToken(server);
    return call('POST', `${server.api('customer')}/tokens/${token.tokenId}/actions/send-password-setup-email`, {
      headers: token.headers,
      body: { email },
    });
  };

  it('sends the setup link through the configured SMTP server', async () => {
    const server = await startTestServer({
      config: { 'mail.smtp_url': `${smtp.url}?ignoreTLS=true`, 'mail.password_setup_url': 'https://shop.example/set-password' },
    });
    try {
      expect((await request(server, demoCredentials.customer_email)).status).toBe(204);
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]!.to).toEqual([demoCredentials.customer_email]);
      const body = smtp.received[0]!.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      expect(body).toMatch(/https:\/\/shop\.example\/set-password\?token=[0-9a-f]{64}/);
    } finally {
      await server.close();
    }
  });

  it('without SMTP writes the message to the spool folder', async () => {
    const server = await startTestServer();
    try {
      expect((await request(server, demoCredentials.customer_email)).status).toBe(204);
      const spool = join(server.dataDir, 'mail-spool');
      const files = readdirSync(spool);
      expect(files).toHaveLength(1);
      expect(readFileSync(join(spool, files[0]!), 'utf8')).toContain(`To: ${demoCredentials.customer_email}`);
    } finally {
      await server.close();
    }
  });

  it('a store whose hub does not answer sends nothing itself and answers 503', async () => {
    const server = await startTestServer({ config: { ...UNREACHABLE_HUB, 'mail.smtp_url': `${smtp.url}?ignoreTLS=true` } });
    const sentBefore = smtp.received.length;
    try {
      expectError(await request(server, demoCredentials.customer_email), 503, 'service_unavailable_exception');
      expect(smtp.received.length).toBe(sentBefore);
    } finally {
      await server.close();
    }
  });

  it('an unknown e-mail answers 204 and sends nothing, a malformed one invalid_value_format, an unreachable SMTP server 503', async () => {
    const server = await startTestServer({ config: { 'mail.smtp_url': 'smtp://127.0.0.1:9?ignoreTLS=true' } });
    try {
      expect((await request(server, 'nobody@example.com')).status).toBe(204);
      expect(expectError(await request(server, 'not-an-email'), 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
        name: 'email',
        reason: 'invalid_value_format',
      });
      expectError(await request(server, demoCredentials.customer_email), 503, 'service_unavailable_exception');
    } finally {
      await server.close();
    }
  });
});
