/**
 * Authentication (DESIGN §4): enterprise Bearer, the deprecated hourly Basic, the customer
 * interface's `api_user:token_id` Basic, and failed-login throttling. Every test gets its own
 * server, because the throttle remembers failures per login and per address in memory.
 */
import Database from 'better-sqlite3';
import { createHash, randomBytes, scryptSync } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { PASSWORD_CHECKS_CHANNEL } from '../../src/auth/passwords.js';
import { demoCredentials } from '../../src/demo/demo.js';
import { databaseFile } from '../../src/root/node.js';
import {
  basic,
  bearer,
  call,
  demoPosLogin,
  demoToken,
  startTestServer,
  TestClock,
  type JsonResponse,
  type TestServer,
  type TestServerOptions,
} from '../support/server.js';
import { expectError } from '../support/expect-error.js';
import { hourlyBasic } from '../support/credentials.js';

const HOUR_MS = 3_600_000;
const BEARER_TTL_MS = 25_200 * 1000;
const FAILURE_WINDOW_MS = 900 * 1000;

let server: TestServer | undefined;

async function start(options: TestServerOptions = {}): Promise<TestServer> {
  server = await startTestServer(options);
  return server;
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function expectUnauthorized(response: JsonResponse): void {
  expectError(response, 401, 'unauthorized_exception');
  expect(response.headers.get('www-authenticate')).toContain('Basic');
}

function login(target: TestServer, body: Record<string, unknown>): Promise<JsonResponse> {
  return call('POST', `${target.api('enterprise')}/users/actions/login`, { body });
}

function posLogin(target: TestServer, password = demoCredentials.pos_password, loginName = demoCredentials.pos_login): Promise<JsonResponse> {
  return login(target, { user_external_application_id: demoCredentials.external_application_id, login: loginName, password });
}

/** Any enterprise call that needs a user: the collection of external applications. */
function enterpriseList(target: TestServer, headers: Record<string, string>): Promise<JsonResponse> {
  return call('GET', `${target.api('enterprise')}/customer-external-applications`, { headers });
}

/** Any customer call that needs a token: updating the token's setup. */
function updateToken(target: TestServer, tokenId: string, headers: Record<string, string>): Promise<JsonResponse> {
  return call('PUT', `${target.api('customer')}/tokens/${tokenId}`, { headers, body: { setup: { language_id: 'cs' } } });
}

describe('enterprise Bearer login', () => {
  it('a valid login answers 200 with a bearer_token that opens the enterprise interface', async () => {
    const target = await start();
    const response = await posLogin(target);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.data)).toEqual(['bearer_token']);
    expect(response.body.data.bearer_token).toMatch(/^\S{32,}$/);
    expect((await enterpriseList(target, bearer(response.body.data.bearer_token))).status).toBe(200);
  });

  it('the answer carrying the bearer token is not to be cached: Cache-Control no-store', async () => {
    const response = await posLogin(await start());
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('a wrong password answers 401', async () => {
    const target = await start();
    expectUnauthorized(await posLogin(target, 'not-the-password'));
  });

  it('an unknown login answers 401', async () => {
    const target = await start();
    expectUnauthorized(await posLogin(target, demoCredentials.pos_password, 'nobody'));
  });

  it("the right password under another application's user_external_application_id answers 401", async () => {
    const target = await start();
    const other = target.app.services.applications.create('Another app');
    const response = await login(target, {
      user_external_application_id: other.external_application_id,
      login: demoCredentials.pos_login,
      password: demoCredentials.pos_password,
    });
    expectUnauthorized(response);
  });

  it('a bearer token is still accepted one second before its lifetime ends', async () => {
    const target = await start();
    const headers = await demoPosLogin(target);
    target.clock.advance(BEARER_TTL_MS - 1000);
    expect((await enterpriseList(target, headers)).status).toBe(200);
  });

  it('a bearer token past its lifetime answers 401', async () => {
    const target = await start();
    const headers = await demoPosLogin(target);
    expect((await enterpriseList(target, headers)).status).toBe(200);
    target.clock.advance(BEARER_TTL_MS + 1000);
    expectUnauthorized(await enterpriseList(target, headers));
  });

  it('the bearer lifetime follows auth.bearer_ttl_seconds', async () => {
    const target = await start({ config: { 'auth.bearer_ttl_seconds': 60 } });
    const headers = await demoPosLogin(target);
    target.clock.advance(59_000);
    expect((await enterpriseList(target, headers)).status).toBe(200);
    target.clock.advance(2_000);
    expectUnauthorized(await enterpriseList(target, headers));
  });

  it('a user disabled after the token was used answers 401 at once, written here or by another process', async () => {
    const target = await start();
    const headers = await demoPosLogin(target);
    const userId = (target.app.node.db.prepare('SELECT id FROM users WHERE login = ?').get(demoCredentials.pos_login) as { id: string }).id;
    expect((await enterpriseList(target, headers)).status).toBe(200);
    target.app.node.writes.write(null, (tx) => tx.update('users', userId, { state: 0 }));
    expectUnauthorized(await enterpriseList(target, headers));
    target.app.node.writes.write(null, (tx) => tx.update('users', userId, { state: 1 }));
    expect((await enterpriseList(target, headers)).status).toBe(200);
    const other = new Database(databaseFile(target.dataDir));
    other.prepare('UPDATE users SET state = 0 WHERE id = ?').run(userId);
    other.close();
    expectUnauthorized(await enterpriseList(target, headers));
  });

  it('a login deletes the sessions that have expired and keeps those still valid', async () => {
    const target = await start();
    const sessionOf = (headers: Record<string, string>) =>
      target.app.node.db
        .prepare('SELECT count(*) AS n FROM user_sessions WHERE token_hash = ?')
        .get(createHash('sha256').update(headers.authorization!.replace('Bearer ', '')).digest('hex')) as { n: number };
    const first = await demoPosLogin(target);
    target.clock.advance(BEARER_TTL_MS - HOUR_MS);
    const second = await demoPosLogin(target);
    expect(sessionOf(first).n).toBe(1);
    target.clock.advance(2 * HOUR_MS);
    await demoPosLogin(target);
    expect(sessionOf(first).n).toBe(0);
    expect(sessionOf(second).n).toBe(1);
    expect((await enterpriseList(target, second)).status).toBe(200);
  });

  it('a bearer token that was never issued answers 401', async () => {
    const target = await start();
    expectUnauthorized(await enterpriseList(target, bearer('0'.repeat(64))));
  });

  it('a valid bearer token sent to the customer interface answers 401', async () => {
    const target = await start();
    const headers = await demoPosLogin(target);
    const { tokenId } = await demoToken(target);
    expectUnauthorized(await updateToken(target, tokenId, headers));
    const create = await call('POST', `${target.api('customer')}/tokens`, {
      headers,
      body: { device: {}, setup: {}, external_application_id: demoCredentials.external_application_id },
    });
    expectUnauthorized(create);
  });
});

describe('deprecated hourly Basic', () => {
  const legacy = demoCredentials.legacy_basic_login;
  const password = demoCredentials.pos_password;
  const beforeEleven = () => new TestClock(Date.UTC(2026, 0, 15, 10, 59, 59));

  it('a hash of the current UTC hour opens the enterprise interface for a user switched to it', async () => {
    const target = await start({ clock: beforeEleven() });
    expect((await enterpriseList(target, hourlyBasic(legacy, password, '2026011510'))).status).toBe(200);
  });

  it('the hash of the previous hour is still accepted just after the hour turns', async () => {
    const target = await start({ clock: beforeEleven() });
    const headers = hourlyBasic(legacy, password, '2026011510');
    expect((await enterpriseList(target, headers)).status).toBe(200);
    target.clock.advance(2_000);
    expect((await enterpriseList(target, headers)).status).toBe(200);
  });

  it('a hash two hours old answers 401 while the current hour is accepted', async () => {
    const target = await start({ clock: beforeEleven() });
    target.clock.advance(HOUR_MS + 2_000);
    expectUnauthorized(await enterpriseList(target, hourlyBasic(legacy, password, '2026011510')));
    expect((await enterpriseList(target, hourlyBasic(legacy, password, '2026011512'))).status).toBe(200);
  });

  it('a hash of the coming hour answers 401', async () => {
    const target = await start({ clock: beforeEleven() });
    expectUnauthorized(await enterpriseList(target, hourlyBasic(legacy, password, '2026011511')));
  });

  it('a hash made from a wrong password answers 401', async () => {
    const target = await start({ clock: beforeEleven() });
    expectUnauthorized(await enterpriseList(target, hourlyBasic(legacy, 'not-the-password', '2026011510')));
  });

  it('a user without the hourly Basic switch answers 401 even with the right hash', async () => {
    const target = await start({ clock: beforeEleven() });
    expectUnauthorized(await enterpriseList(target, hourlyBasic(demoCredentials.pos_login, password, '2026011510')));
    // The same user's Bearer login is unaffected by the switch.
    expect((await posLogin(target)).status).toBe(200);
  });

  it('an hourly Basic header sent to the customer interface answers 401', async () => {
    const target = await start({ clock: beforeEleven() });
    const { tokenId } = await demoToken(target);
    expectUnauthorized(await updateToken(target, tokenId, hourlyBasic(legacy, password, '2026011510')));
  });
});

describe('customer-interface Basic api_user:token_id', () => {
  it('a token created with an empty token part opens PUT /tokens/{id}, which answers 204', async () => {
    const target = await start();
    const created = await call('POST', `${target.api('customer')}/tokens`, {
      headers: basic(demoCredentials.api_user, ''),
      body: { device: { device_id: 'till-1' }, setup: { language_id: 'en' }, external_application_id: demoCredentials.external_application_id },
    });
    expect(created.status).toBe(201);
    const tokenId = created.body.data.token_id as string;
    expect(tokenId).toMatch(/^\S{16,}$/);
    const updated = await updateToken(target, tokenId, basic(demoCredentials.api_user, tokenId));
    expect(updated.status).toBe(204);
    expect(updated.body).toBe('');
  });

  it('a token id that was never issued answers 401', async () => {
    const target = await start();
    const unknown = 'f'.repeat(40);
    expectUnauthorized(await updateToken(target, unknown, basic(demoCredentials.api_user, unknown)));
  });

  it('a token presented under another api user answers 401', async () => {
    const target = await start();
    const { tokenId } = await demoToken(target);
    const other = target.app.services.apiUsers.create('Another customer app');
    expectUnauthorized(await updateToken(target, tokenId, basic(other.user_name, tokenId)));
    expect((await updateToken(target, tokenId, basic(demoCredentials.api_user, tokenId))).status).toBe(204);
  });

  it('an unknown api user answers 401, also when creating a token', async () => {
    const target = await start();
    const { tokenId } = await demoToken(target);
    expectUnauthorized(await updateToken(target, tokenId, basic('no-such-api-user', tokenId)));
    const create = await call('POST', `${target.api('customer')}/tokens`, {
      headers: basic('no-such-api-user', ''),
      body: { device: {}, setup: {}, external_application_id: demoCredentials.external_application_id },
    });
    expectUnauthorized(create);
  });

  it('an empty token part on an endpoint that needs a token answers 401', async () => {
    const target = await start();
    const { tokenId } = await demoToken(target);
    expectUnauthorized(await updateToken(target, tokenId, basic(demoCredentials.api_user, '')));
  });

  it('a request without an Authorization header answers 401 on both interfaces', async () => {
    const target = await start();
    const { tokenId } = await demoToken(target);
    expectUnauthorized(await updateToken(target, tokenId, {}));
    expectUnauthorized(await call('POST', `${target.api('customer')}/tokens`, { body: { device: {}, setup: {} } }));
    expectUnauthorized(await enterpriseList(target, {}));
  });

  it('customer Basic credentials sent to the enterprise interface answer 401', async () => {
    const target = await start();
    const { headers } = await demoToken(target);
    expectUnauthorized(await enterpriseList(target, headers));
  });
});

describe('stored password hashes', () => {
  function storePosHash(target: TestServer, hash: string): void {
    target.app.node.db.prepare('UPDATE users SET password_hash = ? WHERE login = ?').run(hash, demoCredentials.pos_login);
  }

  it('a hash of the right password under other scrypt parameters answers 401, as a wrong password', async () => {
    const target = await start();
    const salt = randomBytes(16);
    const key = scryptSync(demoCredentials.pos_password, salt, 32, { N: 1024, r: 8, p: 1 });
    storePosHash(target, ['scrypt', 1024, 8, 1, salt.toString('base64'), key.toString('base64')].join('$'));
    expectUnauthorized(await posLogin(target));
  });

  it('a hash asking for unbounded work (p=200000, N=2^20) answers 401 without running it', async () => {
    const target = await start();
    const salt = randomBytes(16).toString('base64');
    const key = randomBytes(32).toString('base64');
    for (const parameters of ['16384$1$200000', '1048576$8$1']) {
      storePosHash(target, `scrypt$${parameters}$${salt}$${key}`);
      expectUnauthorized(await posLogin(target));
    }
  }, 5_000);

  it('a refused hash costs one ordinary password check, and the log names the login and the parameters, never the salt or key', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(JSON.parse(chunk.toString())), done()) });
    const target = await start({ log: pino({ level: 'warn' }, sink) });
    const salt = randomBytes(16).toString('base64');
    const key = randomBytes(32).toString('base64');
    let checks = 0;
    const count = () => (checks += 1);
    subscribe(PASSWORD_CHECKS_CHANNEL, count);
    try {
      expectUnauthorized(await posLogin(target, 'a wrong password'));
      storePosHash(target, `scrypt$16384$1$200000$${salt}$${key}`);
      expectUnauthorized(await posLogin(target));
    } finally {
      unsubscribe(PASSWORD_CHECKS_CHANNEL, count);
    }
    expect(checks).toBe(2);
    const refused = lines.filter((line) => String(line.msg).startsWith('login refused'));
    expect(refused).toEqual([expect.objectContaining({ level: 40, account: `user:${demoCredentials.pos_login}`, scheme: 'scrypt$16384$1$200000' })]);
    expect(JSON.stringify(lines)).not.toContain(salt);
    expect(JSON.stringify(lines)).not.toContain(key);
  });
});

describe('failed-login throttling', () => {
  it('after five failed logins the sixth answers 429 with Retry-After, even with the right password', async () => {
    const target = await start();
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expectUnauthorized(await posLogin(target, `wrong-${attempt}`));
    }
    const locked = await posLogin(target);
    const error = expectError(locked, 429, 'too_many_requests_exception');
    // The clock stands still, so the oldest failure leaves the 900 s window in exactly 900 s.
    expect(locked.headers.get('retry-after')).toBe('900');
    expect(error.error_data.retry_after).toBe(900);
    expect(locked.body).not.toHaveProperty('data');
  });

  it('200 parallel wrong-password logins for one login check the password at most five times; the rest answer 429', async () => {
    const target = await start();
    const checks = async () => Number(/^loyaltyd_password_checks_total (\d+)$/m.exec(await (await fetch(`${target.url}/metrics`)).text())![1]);
    const before = await checks();
    const answers = await Promise.all(Array.from({ length: 200 }, (_, attempt) => posLogin(target, `wrong-${attempt}`)));
    expect((await checks()) - before).toBeLessThanOrEqual(5);
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(195);
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
  });

  it('successful logins from one address never add up to a lockout', async () => {
    const target = await start();
    for (let attempt = 1; attempt <= 8; attempt += 1) expect((await posLogin(target)).status).toBe(200);
  });

  it('four failed logins do not lock the login out', async () => {
    const target = await start();
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      expectUnauthorized(await posLogin(target, `wrong-${attempt}`));
    }
    expect((await posLogin(target)).status).toBe(200);
  });

  it('a locked-out login works again once the failure window has passed', async () => {
    const target = await start();
    for (let attempt = 1; attempt <= 5; attempt += 1) await posLogin(target, `wrong-${attempt}`);
    expectError(await posLogin(target), 429, 'too_many_requests_exception');
    target.clock.advance(FAILURE_WINDOW_MS - 1000);
    const stillLocked = await posLogin(target);
    expectError(stillLocked, 429, 'too_many_requests_exception');
    expect(stillLocked.headers.get('retry-after')).toBe('1');
    target.clock.advance(2_000);
    const response = await posLogin(target);
    expect(response.status).toBe(200);
    expect(response.body.data.bearer_token).toEqual(expect.any(String));
  });

  it('failures under different logins from one address lock that address out', async () => {
    const target = await start();
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expectUnauthorized(await posLogin(target, 'whatever', `guess-${attempt}`));
    }
    expectError(await posLogin(target), 429, 'too_many_requests_exception');
  });

  it('the number of failures allowed follows auth.login_failures_allowed', async () => {
    const target = await start({ config: { 'auth.login_failures_allowed': 2 } });
    expectUnauthorized(await posLogin(target, 'wrong-1'));
    expectUnauthorized(await posLogin(target, 'wrong-2'));
    expectError(await posLogin(target), 429, 'too_many_requests_exception');
  });

  it('failed hourly Basic attempts count toward the same lockout as failed logins', async () => {
    const target = await start({ clock: new TestClock(Date.UTC(2026, 0, 15, 10, 30, 0)) });
    const legacy = demoCredentials.legacy_basic_login;
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expectUnauthorized(await enterpriseList(target, hourlyBasic(legacy, `wrong-${attempt}`, '2026011510')));
    }
    expectError(await enterpriseList(target, hourlyBasic(legacy, demoCredentials.pos_password, '2026011510')), 429, 'too_many_requests_exception');
    expectError(await posLogin(target, demoCredentials.pos_password, legacy), 429, 'too_many_requests_exception');
  });

  it('hourly Basic headers for a user without the switch never lock that user or the till out', async () => {
    const target = await start({ clock: new TestClock(Date.UTC(2026, 0, 15, 10, 30, 0)) });
    for (let attempt = 1; attempt <= 8; attempt += 1) {
      expectUnauthorized(await enterpriseList(target, hourlyBasic(demoCredentials.pos_login, demoCredentials.pos_password, '2026011510')));
    }
    expect((await posLogin(target)).status).toBe(200);
  });
});
