/**
 * The certificates and keys the config names, read once at start: a missing or unreadable
 * file is a config error naming its key, so the daemon exits at once instead of serving
 * plain HTTP or failing every round with its hub.
 */
import { readFileSync } from 'node:fs';
import type { ServerOptions } from 'node:https';
import { ConfigError, type Config } from '../core/config.js';
import type { HubTlsFiles } from '../sync/store/hub-client.js';

export function serverTls(config: Config): ServerOptions | undefined {
  const tls = config.http.tls;
  if (!tls) return undefined;
  const asked = tls.client_certificates !== 'off';
  return {
    cert: read('http.tls.cert_file', tls.cert_file),
    key: read('http.tls.key_file', tls.key_file),
    ...(tls.client_ca_file ? { ca: read('http.tls.client_ca_file', tls.client_ca_file) } : {}),
    requestCert: asked,
    // 'sync' asks every client for a certificate but lets one without through the handshake:
    // the hub's sync routes refuse it (src/http/client-certificate.ts), the API does not.
    rejectUnauthorized: tls.client_certificates === 'all',
  };
}

export function hubTls(config: Config): HubTlsFiles | undefined {
  const { ca_file, cert_file, key_file } = config.hub;
  if (!ca_file && !cert_file) return undefined;
  return {
    ...(ca_file ? { ca: read('hub.ca_file', ca_file) } : {}),
    ...(cert_file && key_file ? { cert: read('hub.cert_file', cert_file), key: read('hub.key_file', key_file) } : {}),
  };
}

function read(key: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new ConfigError(`config key ${key}: cannot read ${path}: ${(error as Error).message}`);
  }
}
