/**
 * The store's HTTP client for its hub: undici with keep-alive, a timeout on every call,
 * node-secret authentication and the version headers of the handshake; over https, the
 * hub's CA and this store's client certificate when the config names them.
 */
import { Agent, request } from 'undici';
import { z } from 'zod';
import type { Principal } from '../../http/principal.js';
import { readGzipped } from '../protocol/gzip-json.js';
import {
  ChangesPage,
  CALLER_ADDRESS_HEADER,
  PRINCIPAL_HEADER,
  PROTOCOL_HEADER,
  PROTOCOL_VERSION,
  PushResponse,
  ReplayedResults,
  REPORT_HEADER,
  SCHEMA_HEADER,
  TOKEN_HEADER,
  type ForwardedToken,
} from '../protocol/protocol.js';

export class HubError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly retryAfterSeconds: number | undefined,
    /** The `error.exception` of the hub's answer, when it sent one. */
    readonly exception?: string,
  ) {
    super(message);
  }
}

/** PEM files for an https hub: its CA when a private one signed it, this store's client certificate. */
export interface HubTlsFiles {
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
}

export interface HubClientOptions {
  url: string;
  tls?: HubTlsFiles;
  nodeName: string;
  nodeSecret: string;
  schemaVersion: number;
  timeoutMs?: number;
  /** The store's figures, read afresh for each push, pull and snapshot request (src/sync/store/store-report.ts). */
  report?: () => string;
}

export class HubClient {
  private readonly dispatcher: Agent;
  private readonly headers: Record<string, string>;
  private readonly timeoutMs: number;
  private readonly base: string;
  private readonly report: (() => string) | undefined;

  constructor(options: HubClientOptions) {
    this.report = options.report;
    this.dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: 4, ...(options.tls ? { connect: options.tls } : {}) });
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.base = options.url.replace(/\/+$/, '');
    this.headers = {
      authorization: `Basic ${Buffer.from(`${options.nodeName}:${options.nodeSecret}`).toString('base64')}`,
      [PROTOCOL_HEADER]: String(PROTOCOL_VERSION),
      [SCHEMA_HEADER]: String(options.schemaVersion),
    };
  }

  /** A batch of commands, as its JSON text (protocol.ts, pushRequestText), in the protocol they were queued for. */
  async push(requestText: string): Promise<PushResponse> {
    const response = await this.send('POST', '/sync/v1/commands', requestText, this.timeoutMs);
    return PushResponse.parse(JSON.parse(await response.body.text()));
  }

  /** This store's acknowledged commands the hub lost to a restore from a backup, sent again (src/sync/store/replay.ts), as a ReplayedCommands JSON text. */
  async replay(requestText: string): Promise<ReplayedResults> {
    const text = await this.call('POST', '/sync/v1/replay', requestText);
    return ReplayedResults.parse(JSON.parse(text));
  }

  /**
   * A page of the feed; `pushedThrough` tells the hub this store has pushed everything stamped
   * up to it, which the hub keeps if its feed is still `feedId`, the one the cursor was read from.
   */
  async changes(after: number, limit: number, pushedThrough?: string, feedId?: string): Promise<ChangesPage> {
    const reported =
      (pushedThrough ? `&pushed_through=${encodeURIComponent(pushedThrough)}` : '') + (feedId ? `&feed_id=${encodeURIComponent(feedId)}` : '');
    const response = await this.send('GET', `/sync/v1/changes?after=${after}&limit=${limit}${reported}`, undefined, this.timeoutMs, {
      'accept-encoding': 'gzip',
    });
    const text = await readGzipped(Buffer.from(await response.body.arrayBuffer()), response.headers['content-encoding']);
    return ChangesPage.parse(JSON.parse(text));
  }

  /**
   * The snapshot's NDJSON as it arrives, a chunk's whole lines at a time, as bytes
   * (src/sync/store/snapshot-lines.ts): a line cut between two chunks comes with the second.
   */
  async *snapshot(resume?: { entity: string; afterId: string }, pushedThrough?: string): AsyncGenerator<Buffer> {
    const query = new URLSearchParams();
    if (resume) {
      query.set('entity', resume.entity);
      query.set('after_id', resume.afterId);
    }
    if (pushedThrough) query.set('pushed_through', pushedThrough);
    query.set('format', 'columns');
    const response = await this.send('GET', `/sync/v1/snapshot?${query}`, undefined, 120_000);
    let rest: Buffer = Buffer.alloc(0);
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      const bytes = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
      const end = bytes.lastIndexOf(NEWLINE) + 1;
      rest = bytes.subarray(end);
      if (end > 0) yield bytes.subarray(0, end);
    }
    if (rest.length > 0) yield Buffer.concat([rest, Buffer.from('\n')]);
  }

  /**
   * An API read asked of the hub on behalf of a caller this store authenticated, within
   * `timeoutMs`: its status and JSON body, whatever the status. Throws when the hub does not
   * answer in time.
   */
  history(apiPath: string, principal: Principal, timeoutMs: number): Promise<{ status: number; body: unknown }> {
    return this.lookup(`/history${apiPath}`, timeoutMs, { [PRINCIPAL_HEADER]: Buffer.from(JSON.stringify(principal)).toString('base64url') });
  }

  /**
   * A credential call asked of the hub (src/sync/store/hub-sessions.ts) on behalf of the caller this
   * store authenticated, from the caller's address, with the caller's token's non-secret fields
   * when it is a customer app's, within `timeoutMs`: its status and JSON body, whatever the
   * status. Throws when the hub does not answer in time.
   */
  credentialCall(call: CredentialCall, timeoutMs: number): Promise<{ status: number; body: unknown }> {
    const encoded = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const headers: Record<string, string> = { [PRINCIPAL_HEADER]: encoded(call.principal) };
    if (call.token) headers[TOKEN_HEADER] = encoded(call.token);
    if (call.address) headers[CALLER_ADDRESS_HEADER] = call.address;
    const body = call.method === 'GET' ? undefined : JSON.stringify(call.body ?? {});
    if (body !== undefined) headers['content-type'] = 'application/json';
    return this.lookup(`/sessions${call.apiPath}`, timeoutMs, headers, body, call.method);
  }

  /** A GET under /sync/v1, or a POST (or `method`) of `body`, within `timeoutMs`: its status and JSON body, whatever the status. Throws when the hub does not answer in time. */
  async lookup(
    path: string,
    timeoutMs: number,
    headers: Record<string, string> = {},
    body?: string,
    method: 'GET' | 'POST' | 'PUT' = body === undefined ? 'GET' : 'POST',
  ): Promise<{ status: number; body: unknown }> {
    const response = await request(`${this.base}/sync/v1${path}`, {
      method,
      body,
      headers: { ...this.headers, ...headers },
      dispatcher: this.dispatcher,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.body.text();
    const answer: unknown = text ? JSON.parse(text) : undefined;
    return { status: response.statusCode, body: answer };
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  private async call(method: string, path: string, body?: string): Promise<string> {
    const response = await this.send(method, path, body, this.timeoutMs);
    return response.body.text();
  }

  private async send(method: string, path: string, body: string | undefined, bodyTimeout: number, extraHeaders: Record<string, string> = {}) {
    const headers: Record<string, string> = { ...this.headers, ...extraHeaders };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.report) headers[REPORT_HEADER] = this.report();
    let response;
    try {
      response = await request(`${this.base}${path}`, {
        method: method as 'GET' | 'POST',
        headers,
        body,
        dispatcher: this.dispatcher,
        headersTimeout: this.timeoutMs,
        bodyTimeout,
      });
    } catch (error) {
      throw new HubError(`hub unreachable: ${(error as Error).message}`, undefined, undefined);
    }
    if (response.statusCode >= 400) {
      const detail = await response.body.text().catch(() => '');
      const retryAfter = Number(response.headers['retry-after']);
      throw new HubError(
        `hub answered ${response.statusCode}: ${detail.slice(0, 500)}`,
        response.statusCode,
        Number.isFinite(retryAfter) ? retryAfter : undefined,
        exceptionOf(detail),
      );
    }
    return response;
  }
}

const NEWLINE = 0x0a;

/** A credential call as a store asks it of its hub. */
export interface CredentialCall {
  method: 'GET' | 'POST' | 'PUT';
  /** The call's path under the API, with its query string. */
  apiPath: string;
  principal: Principal;
  /** The caller's customer-app token without its secret, when the caller is a customer app. */
  token: ForwardedToken | undefined;
  body: unknown;
  /** The caller's address as this store saw it ('' when unknown). */
  address: string;
}

/** The `error.exception` of the hub's error envelope (src/http), the one part of it a store reads. */
const ErrorException = z.object({ error: z.object({ exception: z.string() }) });

function exceptionOf(body: string): string | undefined {
  try {
    const parsed = ErrorException.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data.error.exception : undefined;
  } catch {
    return undefined;
  }
}
