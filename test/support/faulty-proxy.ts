/**
 * A bad network between a store and its hub: a node:http proxy on 127.0.0.1 (port 0) that,
 * drawing from a seeded PRNG at configurable rates, drops a connection before forwarding,
 * delays a request, forwards a request twice (the store sees the answer to the second), or
 * cuts a response midway (headers and part of the body written, then the socket destroyed).
 * It can also hold requests or responses back on purpose — a request before the hub sees
 * it, an answer entirely or after so many lines of a stream — so that a test can act at a
 * chosen point of a push, a pull or a bootstrap.
 *
 * In front of an https hub it serves https itself with the test run's certificate
 * (test/support/test-pki.ts), and reaches the hub trusting the run's CA, so that a store
 * speaks TLS through it as it would to the hub.
 *
 * The fault stream is reproducible from the seed; which request draws which fault still
 * depends on the order requests arrive in. `close()` stops everything: the server, every
 * socket, every upstream request and every timer.
 */
import { readFileSync } from 'node:fs';
import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Agent as TlsAgent, createServer as createTlsServer, request as httpsRequest } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { testPki } from './test-pki.js';

export interface FaultRates {
  /** Destroy the connection before anything reaches the hub. */
  drop: number;
  /** Wait `delayMs` (a random value in the range) before forwarding. */
  delay: number;
  /** Forward the request twice; the client gets the second answer. */
  duplicate: number;
  /** Forward, then write the status, headers and a random part of the body, and destroy the socket. */
  cut: number;
}

export const NO_FAULTS: FaultRates = { drop: 0, delay: 0, duplicate: 0, cut: 0 };

export interface HoldRule {
  method?: string;
  path: RegExp;
  /** Matching responses let through before holding starts (default 0). */
  skip?: number;
  /** Lines of the body sent before the rest is held (default 0: nothing of the body). */
  afterLines?: number;
  /** Hold the request itself, before it reaches the hub, rather than its answer. */
  request?: boolean;
}

export interface ProxyStats {
  requests: number;
  dropped: number;
  delayed: number;
  duplicated: number;
  cut: number;
  forwarded: number;
  upstreamFailures: number;
}

export interface FaultyProxyOptions {
  target: string;
  seed?: number;
  rates?: Partial<FaultRates>;
  delayMs?: [number, number];
}

/** mulberry32: small, fast and good enough to pick faults reproducibly. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Upstream {
  status: number;
  headers: IncomingMessage['headers'];
  body: IncomingMessage;
}

export class FaultyProxy {
  readonly seed: number;
  readonly stats: ProxyStats = { requests: 0, dropped: 0, delayed: 0, duplicated: 0, cut: 0, forwarded: 0, upstreamFailures: 0 };
  /** Method and URL of every request received, in order. */
  readonly requestLog: string[] = [];
  private rates: FaultRates;
  private readonly delayMs: [number, number];
  private readonly random: () => number;
  private readonly target: URL;
  private readonly server: Server;
  private readonly agent: Agent;
  private readonly secure: boolean;
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly upstreams = new Set<IncomingMessage>();
  private readonly released = new Set<() => void>();
  private holdRule: (HoldRule & { seen: number }) | undefined;
  private holding = 0;
  private closed = false;
  private port = 0;

  private constructor(options: FaultyProxyOptions) {
    this.seed = options.seed ?? 1;
    this.random = seededRandom(this.seed);
    this.rates = { ...NO_FAULTS, ...options.rates };
    this.delayMs = options.delayMs ?? [5, 120];
    this.target = new URL(options.target);
    this.secure = this.target.protocol === 'https:';
    const handler = (request: IncomingMessage, response: ServerResponse) => void this.handle(request, response);
    if (this.secure) {
      const pki = testPki();
      this.server = createTlsServer({ cert: readFileSync(pki.server.cert), key: readFileSync(pki.server.key) }, handler);
      this.agent = new TlsAgent({ keepAlive: true, maxSockets: 16, ca: readFileSync(pki.caCert) });
    } else {
      this.server = createServer(handler);
      this.agent = new Agent({ keepAlive: true, maxSockets: 16 });
    }
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  static async start(options: FaultyProxyOptions): Promise<FaultyProxy> {
    const proxy = new FaultyProxy(options);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    proxy.port = (proxy.server.address() as AddressInfo).port;
    // A proxy a test forgot to close must not keep the test process alive.
    proxy.server.unref();
    return proxy;
  }

  get url(): string {
    return `${this.secure ? 'https' : 'http'}://127.0.0.1:${this.port}`;
  }

  setRates(rates: Partial<FaultRates>): void {
    this.rates = { ...NO_FAULTS, ...rates };
  }

  faultsOff(): void {
    this.rates = { ...NO_FAULTS };
  }

  /** Holds back matching requests or responses (see HoldRule) until `release()`. */
  hold(rule: HoldRule): void {
    this.holdRule = { ...rule, seen: 0 };
  }

  /** Requests or responses currently held back. */
  get held(): number {
    return this.holding;
  }

  /** Stops holding: held responses continue (to their client, if it is still there). */
  release(): void {
    this.holdRule = undefined;
    for (const resume of [...this.released]) resume();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.holdRule = undefined;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const resume of [...this.released]) resume();
    for (const upstream of this.upstreams) upstream.destroy();
    for (const socket of this.sockets) socket.destroy();
    this.agent.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    this.stats.requests += 1;
    this.requestLog.push(`${request.method} ${request.url}`);
    const body = await readAll(request).catch(() => undefined);
    if (body === undefined || this.closed) return void request.socket.destroy();
    // Draw every decision up front so that the seed fixes the fault stream.
    const draws = {
      drop: this.random(),
      delay: this.random(),
      delayMs: this.random(),
      duplicate: this.random(),
      cut: this.random(),
      cutAt: this.random(),
    };
    if (draws.drop < this.rates.drop) {
      this.stats.dropped += 1;
      return void request.socket.destroy();
    }
    if (draws.delay < this.rates.delay) {
      this.stats.delayed += 1;
      await this.sleep(this.delayMs[0] + draws.delayMs * (this.delayMs[1] - this.delayMs[0]));
      if (this.closed || request.socket.destroyed) return void request.socket.destroy();
    }
    const rule = this.matchHold(request);
    if (rule?.request) {
      await this.waitForRelease(response, rule);
      if (this.closed || request.socket.destroyed) return void request.socket.destroy();
    }
    let upstream: Upstream;
    try {
      if (draws.duplicate < this.rates.duplicate) {
        this.stats.duplicated += 1;
        const first = await this.forward(request, body);
        await readAll(first.body).catch(() => undefined);
      }
      upstream = await this.forward(request, body);
    } catch {
      // The hub is down or went away: the store sees the connection fail, as it would.
      this.stats.upstreamFailures += 1;
      return void request.socket.destroy();
    }
    if (this.closed || request.socket.destroyed) {
      upstream.body.destroy();
      return void request.socket.destroy();
    }
    if (draws.cut < this.rates.cut) {
      this.stats.cut += 1;
      const full = await readAll(upstream.body).catch(() => Buffer.alloc(0));
      response.writeHead(upstream.status, upstream.headers);
      response.write(full.subarray(0, Math.floor(draws.cutAt * full.length)));
      // Let the part written reach the client, then cut the connection under it.
      await this.sleep(5);
      return void request.socket.destroy();
    }
    // A client gone mid-stream takes the upstream request with it, so the hub sees the close.
    response.once('close', () => {
      if (!upstream.body.readableEnded) upstream.body.destroy();
    });
    if (rule && !rule.request) return this.sendHeld(upstream, response, rule);
    response.writeHead(upstream.status, upstream.headers);
    upstream.body.pipe(response);
    upstream.body.once('error', () => request.socket.destroy());
  }

  /** Sends the first `afterLines` lines of the body, then holds the rest until released. */
  private async sendHeld(upstream: Upstream, response: ServerResponse, rule: HoldRule): Promise<void> {
    const afterLines = rule.afterLines ?? 0;
    response.writeHead(upstream.status, upstream.headers);
    let lines = 0;
    const rest: Buffer[] = [];
    await new Promise<void>((resolve) => {
      const onData = (chunk: Buffer) => {
        if (lines >= afterLines) {
          rest.push(chunk);
          // Back-pressure reaches the hub, as a stalled network would.
          upstream.body.pause();
          upstream.body.off('data', onData);
          resolve();
          return;
        }
        let cut = 0;
        while (cut < chunk.length && lines < afterLines) {
          const newline = chunk.indexOf(10, cut);
          if (newline === -1) {
            cut = chunk.length;
            break;
          }
          cut = newline + 1;
          lines += 1;
        }
        response.write(chunk.subarray(0, cut));
        if (cut < chunk.length) {
          rest.push(chunk.subarray(cut));
          upstream.body.pause();
          upstream.body.off('data', onData);
          resolve();
        }
      };
      upstream.body.on('data', onData);
      upstream.body.once('end', () => resolve());
      upstream.body.once('error', () => resolve());
    });
    await this.waitForRelease(response, rule);
    if (this.closed || response.socket === null || response.socket.destroyed) {
      upstream.body.destroy();
      return;
    }
    for (const chunk of rest) response.write(chunk);
    if (upstream.body.readableEnded) response.end();
    else {
      upstream.body.pipe(response);
      upstream.body.resume();
    }
  }

  /** The hold rule this request falls under, counting it against the rule's `skip`. */
  private matchHold(request: IncomingMessage): HoldRule | undefined {
    const rule = this.holdRule;
    if (!rule || (rule.method !== undefined && rule.method !== request.method) || !rule.path.test(request.url ?? '')) return undefined;
    rule.seen += 1;
    return rule.seen > (rule.skip ?? 0) ? rule : undefined;
  }

  /** Until `release()`, `close()`, or the client going away; at once if the rule was released meanwhile. */
  private async waitForRelease(response: ServerResponse, rule: HoldRule): Promise<void> {
    if (this.holdRule !== rule) return;
    this.holding += 1;
    await new Promise<void>((resolve) => {
      const resume = () => {
        this.released.delete(resume);
        response.socket?.off('close', resume);
        resolve();
      };
      this.released.add(resume);
      response.socket?.once('close', resume);
    });
    this.holding -= 1;
  }

  private forward(request: IncomingMessage, body: Buffer): Promise<Upstream> {
    return new Promise((resolve, reject) => {
      const headers = { ...request.headers, host: this.target.host, 'content-length': String(body.length) };
      delete headers['transfer-encoding'];
      const outgoing = (this.secure ? httpsRequest : httpRequest)(
        { host: this.target.hostname, port: this.target.port, method: request.method, path: request.url, headers, agent: this.agent },
        (incoming) => {
          this.stats.forwarded += 1;
          this.upstreams.add(incoming);
          incoming.once('close', () => this.upstreams.delete(incoming));
          resolve({ status: incoming.statusCode ?? 502, headers: incoming.headers, body: incoming });
        },
      );
      outgoing.once('error', reject);
      outgoing.end(body);
    });
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('end', () => resolve(Buffer.concat(chunks)));
    stream.once('error', reject);
    stream.once('aborted', () => reject(new Error('aborted')));
  });
}
