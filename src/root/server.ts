import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer, type ServerOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { App } from './app.js';
import { answerClientError } from '../http/client-error.js';

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serves the app over HTTP, or over https when `tls` holds the certificate (src/root/tls-files.ts). */
export function startServer(app: App, host: string, port: number, tls?: ServerOptions): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server: Server = (tls ? createTlsServer(tls, app.listener) : createServer(app.listener)).listen(port, host);
    let stopBackground: () => Promise<void> = async () => {};
    server.keepAliveTimeout = 65_000;
    server.on('clientError', answerClientError);
    server.once('error', reject);
    server.once('listening', () => {
      stopBackground = app.startBackground();
      const address = server.address() as AddressInfo;
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        url: `${tls ? 'https' : 'http'}://${shownHost}:${address.port}`,
        port: address.port,
        close: async () => {
          const stopped = stopBackground();
          await new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          });
          await stopped;
        },
      });
    });
  });
}
