/**
 * Starts a real node on 127.0.0.1 (port 0) over a real SQLite file in a temp folder (a hub in
 * the run's PostgreSQL cluster instead when the run says so: test/support/hub-engine.ts).
 * Tests speak HTTP to it; nothing of ours is mocked. A hub serves https with the test run's
 * certificate, and a store syncing with a hub on https trusts the run's CA through
 * `hub.ca_file` (test/support/test-pki.ts), unless the test says otherwise.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { createApp, type App } from '../../src/root/app.js';
import { loadConfig, type Config } from '../../src/core/config.js';
import { demoCredentials, loadDemo } from '../../src/demo/demo.js';
import { basePath, type Interface } from '../../src/http/interfaces.js';
import { startServer } from '../../src/root/server.js';
import { Writer } from '../../src/root/writer.js';
import { systemClock } from '../../src/core/clock.js';
import { serverTls } from '../../src/root/tls-files.js';
import { hubTlsConfig, testPki } from './test-pki.js';
import { dropHubDatabase, hubDatabaseConfig } from './hub-engine.js';

/** A clock tests can move; starts at the real time unless told otherwise. */
export class TestClock {
  constructor(public ms: number = Date.now()) {}
  now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface TestServer {
  url: string;
  app: App;
  config: Config;
  clock: TestClock;
  dataDir: string;
  /** Base URL of an interface, e.g. `${server.api('enterprise')}/customers`. */
  api(iface: Interface): string;
  close(): Promise<void>;
}

export interface TestServerOptions {
  config?: Record<string, unknown>;
  clock?: TestClock;
  demo?: boolean;
  dataDir?: string;
  /** A fixed port, so that a node restarted on the same folder is found again. */
  port?: number;
  /** The node's logger; silent unless given. */
  log?: Logger;
  /**
   * Serve as `loyaltyd serve` serves a store: calls that may write go to a writer thread
   * (src/root/writer.ts) and the event loop reads through a read-only connection. The thread
   * runs on the system clock, so `clock` is not moved.
   */
  writerThread?: boolean;
  /** A hub serves plain http when false. */
  tls?: boolean;
}

export function tempDir(prefix = 'loyaltyd-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDir();
  const clock = options.clock ?? new TestClock();
  const hubDatabase = options.config?.mode === 'hub' && !('database.url' in options.config) ? await hubDatabaseConfig(dataDir) : {};
  const config = loadConfig({
    env: {},
    overrides: { data_dir: dataDir, 'http.port': 0, 'log.level': 'silent', ...runTls(options), ...hubDatabase, ...options.config },
  });
  const log = options.log ?? pino({ level: 'silent' });
  const demo = options.demo ?? true;
  const writer = options.writerThread ? await Writer.start({ config, syncAgent: false, demo, showcase: false }) : undefined;
  const app = createApp({ config, clock: writer ? systemClock : clock.now, log, writer });
  if (!writer && demo) await loadDemo(app);
  const server = await startServer(app, '127.0.0.1', options.port ?? 0, serverTls(config));
  return {
    url: server.url,
    app,
    config,
    clock,
    dataDir,
    api: (iface) => `${server.url}${basePath(iface)}`,
    close: async () => {
      await server.close();
      app.close();
      await writer?.stop();
      if (options.dataDir) return;
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
      await dropHubDatabase(dataDir);
    },
  };
}

/**
 * The run's certificate for a hub, and its CA for a store with an https hub, where the test's
 * own config names neither (a test naming `hub.ca_file` as undefined trusts the system's CAs alone).
 */
function runTls(options: TestServerOptions): Record<string, unknown> {
  const config = options.config ?? {};
  if (config.mode === 'hub' && options.tls !== false && !('http.tls' in config)) return hubTlsConfig();
  const hubUrl = config['hub.url'];
  if (typeof hubUrl === 'string' && hubUrl.startsWith('https:') && !('hub.ca_file' in config)) return { 'hub.ca_file': testPki().caCert };
  return {};
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: any;
}

/** One HTTP call with a JSON body (if any); the answer's body parsed when it is JSON. */
export async function call(
  method: string,
  url: string,
  options: { body?: unknown; headers?: Record<string, string>; rawBody?: string } = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && !Object.keys(headers).some((key) => key.toLowerCase() === 'content-type')) {
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed };
}

/**
 * GET on a node's enterprise interface with a file's own server and headers, read when called
 * (they are made in its beforeAll); a call may pass other headers.
 */
export function enterpriseGetter(server: () => TestServer, headers: () => Record<string, string>) {
  return (path: string, as: Record<string, string> = headers()) => call('GET', `${server().api('enterprise')}${path}`, { headers: as });
}

export function basic(user: string, secret: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}` };
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** Logs the demo POS user in and returns its Bearer header. */
export async function demoPosLogin(server: TestServer): Promise<Record<string, string>> {
  const response = await call('POST', `${server.api('enterprise')}/users/actions/login`, {
    body: {
      user_external_application_id: demoCredentials.external_application_id,
      login: demoCredentials.pos_login,
      password: demoCredentials.pos_password,
    },
  });
  if (response.status !== 200) throw new Error(`demo login failed: ${JSON.stringify(response.body)}`);
  return bearer(response.body.data.bearer_token as string);
}

/** Creates a customer-interface token for the demo api user; returns its id and header. */
export async function demoToken(server: TestServer): Promise<{ tokenId: string; headers: Record<string, string> }> {
  const response = await call('POST', `${server.api('customer')}/tokens`, {
    headers: basic(demoCredentials.api_user, ''),
    body: { device: { device_id: 'test-device' }, setup: { language_id: 'en' }, external_application_id: demoCredentials.external_application_id },
  });
  if (response.status !== 201) throw new Error(`token creation failed: ${JSON.stringify(response.body)}`);
  const tokenId = response.body.data.token_id as string;
  return { tokenId, headers: basic(demoCredentials.api_user, tokenId) };
}
