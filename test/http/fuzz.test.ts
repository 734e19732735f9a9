/**
 * Bad input never yields 5xx (DESIGN §3; issue 20): every operation of the 2021 OpenAPI file
 * gets a fixed number of generated requests — ids the node knows and ids that are not ids,
 * query values of the wrong type or named like Object.prototype's members (sort fields and
 * filters alike), bodies built from the operation's schema and then broken, valid checkout
 * and point bodies (../support/fuzz-corpus.ts) with single values pushed to extremes, bodies
 * that are not JSON — on the interface that serves it (both, alternately, when both do). Each answer
 * must be below 500, and a 4xx must be the API's error envelope. An operation loyaltyd does
 * not serve answers 404 or 405, which passes. The node's rate limits are set low, and the run
 * ends with well-formed requests past them to the operations they guard (`POST /tokens`,
 * `send-password-setup-email`): each must answer 429, and a 429 must say when to come back
 * (`Retry-After`).
 *
 * The requests are drawn from a seed (printed with any finding); `LOYALTYD_FUZZ_SEED=<n>`
 * replays or varies a run. The walk is sequential, so a seed replays the same sequence.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../src/demo/demo.js';
import { EXCEPTIONS } from '../../src/core/errors.js';
import type { Interface } from '../../src/http/interfaces.js';
import { CORPUS } from '../support/fuzz-corpus.js';
import { bodyText, Known, mutated, pathValue, queryString, Random, rawBody, seedOf, tweaked, valueOf } from '../support/fuzz-inputs.js';
import { basic, demoPosLogin, demoToken, startTestServer, type TestServer } from '../support/server.js';
import { specOperations, type Operation } from '../support/spec-operations.js';
import { hourlyBasic, utcHour } from '../support/credentials.js';

const SEED = Number(process.env.LOYALTYD_FUZZ_SEED ?? 20);
const REQUESTS_PER_OPERATION = 25;
/** Every request of the run, the interface probes included. */
const MAX_REQUESTS = 6_000;
/**
 * Rate limits low enough to be reached: the caller's address creates the two tokens of the
 * set-up and two more, and asks for two password-setup mails, one per e-mail address.
 */
const LIMITS = {
  'auth.tokens_per_api_user': 4,
  'auth.tokens_per_address': 4,
  'auth.password_setup_mails_per_customer': 1,
  'auth.password_setup_mails_per_address': 2,
};
/** Well-formed requests past the limits: more than they allow, whatever the seed's walk spent of them. */
const PAST_THE_LIMITS = 6;

interface Sent {
  iface: Interface;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

interface Finding {
  request: string;
  status: number | string;
  answer: string;
}

const operations = specOperations();
let server: TestServer;
/** Each interface's caller, and the other credentials an operation may be called with. */
let credentials: Record<Interface | 'legacy-basic' | 'anonymous-token' | 'api-user', Record<string, string>>;
let tokenId: string;
const known = new Known(
  {
    customer_id: [DEMO_IDS.customerJana, DEMO_IDS.customerPetr, DEMO_IDS.customerEva],
    store_id: [DEMO_IDS.storeCentral, DEMO_IDS.storeAirport],
    external_application_id: [DEMO_IDS.app],
    user_external_application_id: [DEMO_IDS.app],
  },
  [demoCredentials.customer_card, '2000000000024', '2000000000031', '0000000000000'],
  [demoCredentials.pos_login, demoCredentials.customer_password, demoCredentials.customer_email, 'GLOBAL', 'cs', 'en'],
);

/** Starts the node the walk runs against, and takes its callers' credentials. */
async function setUp(writerThread: boolean): Promise<void> {
  server = await startTestServer({ config: LIMITS, writerThread });
  const token = await demoToken(server);
  tokenId = token.tokenId;
  const login = await fetch(`${server.api('customer')}/tokens/${tokenId}/actions/login`, {
    method: 'POST',
    headers: { ...token.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ login_type: 'card', login_value: demoCredentials.customer_card, password: demoCredentials.customer_password }),
  });
  if (login.status !== 200) throw new Error(`customer login failed: ${await login.text()}`);
  credentials = {
    enterprise: await demoPosLogin(server),
    // The demo user switched to the deprecated hourly Basic scheme.
    'legacy-basic': hourlyBasic(demoCredentials.legacy_basic_login, demoCredentials.pos_password, utcHour(server.clock.now())),
    customer: token.headers,
    'anonymous-token': (await demoToken(server)).headers,
    'api-user': basic(demoCredentials.api_user, ''),
  };
}

/** One request as sent, with node:http rather than fetch: a GET may carry a body too. */
function exchange(url: string, sent: Sent): Promise<{ status: number; contentType: string; retryAfter: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    // Node frames a GET's or DELETE's body only when told its length.
    const length = sent.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(sent.body)) };
    const outgoing = httpRequest(url, { method: sent.method, headers: { ...sent.headers, ...length } }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () =>
        resolve({
          status: incoming.statusCode ?? 0,
          contentType: incoming.headers['content-type'] ?? '',
          retryAfter: incoming.headers['retry-after'],
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(sent.body);
  });
}

interface Outcome {
  status: number;
  /** The `exception` of an error answer. */
  exception?: string;
  finding?: Finding;
}

/** Sends one request; a 5xx, a dropped connection, JSON that does not parse or a 4xx outside the error envelope is a finding. */
async function send(sent: Sent): Promise<Outcome> {
  const url = `${server.api(sent.iface)}${sent.path}`;
  const described = `${sent.method} ${cut(url)} ${cut(JSON.stringify(sent.headers))} ${cut(sent.body)}`;
  let answer: Awaited<ReturnType<typeof exchange>>;
  try {
    answer = await exchange(url, sent);
  } catch (error) {
    return { status: 0, finding: { request: described, status: 'no answer', answer: String(error) } };
  }
  const { status, contentType, retryAfter, text } = answer;
  const found = (problem: string): Outcome => ({ status, finding: { request: described, status, answer: `${problem}: ${cut(text)}` } });
  let body: unknown;
  if (contentType.startsWith('application/json')) {
    try {
      body = JSON.parse(text);
    } catch {
      return found('JSON that does not parse');
    }
  }
  if (status >= 500) return found('server error');
  if (status < 400) {
    known.learn(body);
    return { status };
  }
  const problem = errorProblemOf(status, contentType, body);
  if (problem) return found(problem);
  if (status === 429 && !/^[1-9]\d*$/.test(retryAfter ?? '')) return found(`a 429 with Retry-After ${String(retryAfter)}`);
  return { status, exception: (body as { error: { exception: string } }).error.exception };
}

function errorProblemOf(status: number, contentType: string, body: unknown): string | undefined {
  if (!contentType.startsWith('application/json')) return 'an error that is not JSON';
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  const fields = ['type', 'exception', 'title', 'detail'];
  if (Object.keys(body as object).join() !== 'error' || !error || fields.some((field) => typeof error[field] !== 'string'))
    return 'not the error envelope';
  if (EXCEPTIONS[error.exception as keyof typeof EXCEPTIONS] !== status) return `exception ${String(error.exception)} answered with ${status}`;
  if (error.error_data !== undefined && (error.error_data === null || typeof error.error_data !== 'object')) return 'error_data that is no object';
  return undefined;
}

/** A long text shortened for a finding's report. */
function cut(text: string | Uint8Array | undefined): string {
  if (text === undefined) return '';
  const shown = typeof text === 'string' ? text : `<${text.length} bytes>`;
  return shown.length > 300 ? `${shown.slice(0, 300)}… (${shown.length} characters)` : shown;
}

/** The operation's path with each parameter filled in. */
function filledPath(operation: Operation, fill: (name: string) => string): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => fill(name));
}

/** A credential that is not the caller's, now and then: none, malformed, or prototype-named. */
function authorization(random: Random, iface: Interface, operation: Operation): Record<string, string> {
  if (random.chance(0.07)) {
    return random.pick<Record<string, string>>([
      {},
      { authorization: 'Bearer ' },
      { authorization: 'Bearer __proto__' },
      { authorization: 'Basic !!!' },
      { authorization: 'Digest x' },
      { authorization: `Bearer ${'f'.repeat(3_000)}` },
      { authorization: `Basic ${Buffer.from('no-colon').toString('base64')}` },
      { authorization: `Basic ${Buffer.from([0xff, 0xfe, 0x3a, 0xff]).toString('base64')}` },
      basic('constructor', 'toString'),
      basic('__proto__', tokenId),
      basic(demoCredentials.api_user, 'hasOwnProperty'),
      basic(demoCredentials.legacy_basic_login, 'f'.repeat(64)),
      credentials[iface === 'enterprise' ? 'customer' : 'enterprise'],
    ]);
  }
  if (operation.public) return {};
  if (operation.basicOnly) return credentials['api-user'];
  // Now and then the interface's other caller: a legacy Basic user, a token nobody logged in with.
  if (random.chance(0.15)) return credentials[iface === 'enterprise' ? 'legacy-basic' : 'anonymous-token'];
  return credentials[iface];
}

function request(random: Random, operation: Operation, iface: Interface): Sent {
  const headers: Record<string, string> = { ...authorization(random, iface, operation) };
  if (random.chance(0.2)) headers['accept-language'] = random.pick(['cs', 'en-gb;q=0.8, *', '__proto__', '', 'x'.repeat(2_000)]);
  if (operation.method !== 'get' && random.chance(0.15))
    headers['idempotency-key'] = random.pick(['constructor', `key-${random.hex(8)}`, ' ', 'x'.repeat(1_000)]);
  const path = filledPath(operation, (name) => (name === 'token_id' && random.chance(0.5) ? tokenId : pathValue(random, name, known)));
  const query = queryString(random, operation.parameters, operation.listedFields, known);
  const sent: Sent = { iface, method: operation.method.toUpperCase(), path: query ? `${path}?${query}` : path, headers };
  if (operation.method === 'get' || operation.method === 'delete' ? random.chance(0.05) : random.chance(0.9)) {
    const corpus = CORPUS[`${sent.method} ${operation.path}`];
    if (corpus && random.chance(0.5)) {
      headers['content-type'] = 'application/json';
      const body = corpus(`fuzz-bill-${random.int(5)}`);
      sent.body = JSON.stringify(random.chance(0.25) ? body : tweaked(random, body));
    } else if (operation.body && random.chance(0.85)) {
      headers['content-type'] = 'application/json';
      // A quarter of the bodies are left whole, to reach past validation into the services.
      const clean = random.chance(0.25);
      const body = valueOf(random, operation.body, 'body', known, clean);
      sent.body = bodyText(random, clean ? body : mutated(random, body));
    } else {
      const raw = rawBody(random);
      if (raw.contentType) headers['content-type'] = raw.contentType;
      if (raw.contentEncoding) headers['content-encoding'] = raw.contentEncoding;
      sent.body = raw.text;
    }
  }
  return sent;
}

/** The interfaces that serve an operation: those that do not answer it interface_not_allowed_exception. */
async function interfacesOf(operation: Operation, findings: Finding[]): Promise<Interface[]> {
  const serving: Interface[] = [];
  for (const iface of ['enterprise', 'customer'] as const) {
    const probe = await send({
      iface,
      method: operation.method.toUpperCase(),
      path: filledPath(operation, () => DEMO_IDS.customerJana),
      headers: credentials[iface],
    });
    if (probe.finding) findings.push(probe.finding);
    if (probe.exception !== 'interface_not_allowed_exception') serving.push(iface);
  }
  // An operation loyaltyd lacks answers 404 or 405 on both; none is refused by both.
  return serving.length > 0 ? serving : ['enterprise'];
}

/**
 * Well-formed requests to each rate-limited operation, past its limits: the last one's status
 * by operation, which must be 429. Their answers are checked as every other.
 */
async function reachLimits(findings: Finding[]): Promise<Record<string, number>> {
  const json = { 'content-type': 'application/json' };
  const requests: Record<string, Sent> = {
    tokens: {
      iface: 'customer',
      method: 'POST',
      path: '/tokens',
      headers: { ...credentials['api-user'], ...json },
      body: JSON.stringify({ device: {}, setup: {} }),
    },
    'send-password-setup-email': {
      iface: 'customer',
      method: 'POST',
      path: `/tokens/${tokenId}/actions/send-password-setup-email`,
      headers: { ...credentials.customer, ...json },
      body: JSON.stringify({ email: 'past-the-limits@example.com' }),
    },
  };
  const last: Record<string, number> = {};
  for (const [name, sent] of Object.entries(requests)) {
    for (let count = 0; count < PAST_THE_LIMITS; count++) {
      const answer = await send(sent);
      if (answer.finding) findings.push(answer.finding);
      last[name] = answer.status;
    }
  }
  return last;
}

/** Logouts last: they end the sessions every other operation is called with. */
const ordered = [
  ...operations.filter((operation) => !operation.path.endsWith('/logout')),
  ...operations.filter((operation) => operation.path.endsWith('/logout')),
];

// Served as `loyaltyd serve` serves a store, every GET and the reading POSTs are answered on the
// event loop's read-only connection: a read that writes answers 500 there alone.
describe.each([
  { node: 'a node on one thread', writerThread: false },
  { node: 'a store with its writer thread', writerThread: true },
])('fuzz over every operation of the 2021 spec, $node', ({ writerThread }) => {
  beforeAll(() => setUp(writerThread));
  afterAll(() => server.close());
  it(`answers ${REQUESTS_PER_OPERATION} generated requests to each operation below 500, errors in the envelope (seed ${SEED})`, async () => {
    expect(operations.length).toBeGreaterThan(150);
    expect(operations.length * (REQUESTS_PER_OPERATION + 2)).toBeLessThanOrEqual(MAX_REQUESTS);
    const findings: Finding[] = [];
    const succeeded = new Set<Operation>();
    for (const operation of ordered) {
      const random = new Random(seedOf(SEED, `${operation.method} ${operation.path}`));
      const interfaces = await interfacesOf(operation, findings);
      for (let count = 0; count < REQUESTS_PER_OPERATION; count++) {
        const answer = await send(request(random, operation, random.pick(interfaces)));
        if (answer.status < 300) succeeded.add(operation);
        if (answer.finding) findings.push(answer.finding);
      }
    }
    const limited = await reachLimits(findings);
    const report = findings.slice(0, 10).map((finding) => `\n${finding.status} ← ${finding.request}\n   ${finding.answer}`);
    expect(findings.length, `seed ${SEED}: ${findings.length} findings (LOYALTYD_FUZZ_SEED=${SEED} replays them)${report.join('')}`).toBe(0);
    // The fuzz reaches past authentication and validation into the services: reads and writes succeed.
    expect(succeeded.size).toBeGreaterThanOrEqual(50);
    expect([...succeeded].filter((operation) => operation.method !== 'get').length).toBeGreaterThanOrEqual(8);
    // The rate limits were reached, and answered as the envelope and Retry-After above require.
    expect(limited).toEqual({ tokens: 429, 'send-password-setup-email': 429 });
  }, 60_000);
});
