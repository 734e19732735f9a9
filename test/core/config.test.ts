import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/core/config.js';

const folder = mkdtempSync(join(tmpdir(), 'loyaltyd-config-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let files = 0;
function configFile(content: unknown): string {
  files += 1;
  const file = join(folder, `config-${files}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

/** The ConfigError that loading throws; fails the test when loading succeeds. */
function configError(load: () => unknown): ConfigError {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('the configuration loaded without an error');
}

describe('configuration', () => {
  it('loads config/default.json when nothing else is given', () => {
    const defaults = JSON.parse(readFileSync(new URL('../../config/default.json', import.meta.url), 'utf8'));
    const config = loadConfig({ env: {} });
    expect(config).toEqual(defaults);
    expect(config.mode).toBe('store');
    expect(config.http.port).toBe(8080);
    expect(config.sync.interval_seconds).toBe(30);
  });

  it('merges a config file over the defaults key by key', () => {
    const file = configFile({ mode: 'hub', http: { port: 9090 }, sync: { interval_seconds: 5 } });
    const config = loadConfig({ file, env: {} });
    expect(config.mode).toBe('hub');
    expect(config.http.port).toBe(9090);
    // Sibling keys of a section the file touches keep their defaults.
    expect(config.http.host).toBe('127.0.0.1');
    expect(config.http.body_limit_bytes).toBe(1048576);
    expect(config.sync.interval_seconds).toBe(5);
    expect(config.log.level).toBe('info');
  });

  it('reads LOYALTYD_PORT, LOYALTYD_DATA_DIR, LOYALTYD_HUB_URL and LOYALTYD_SYNC_INTERVAL_SECONDS', () => {
    const config = loadConfig({
      env: {
        LOYALTYD_PORT: '18080',
        LOYALTYD_DATA_DIR: '/var/lib/loyaltyd',
        LOYALTYD_HUB_URL: 'https://hub.example.com',
        LOYALTYD_SYNC_INTERVAL_SECONDS: '12',
      },
    });
    expect(config.http.port).toBe(18080);
    expect(config.data_dir).toBe('/var/lib/loyaltyd');
    expect(config.hub.url).toBe('https://hub.example.com');
    expect(config.sync.interval_seconds).toBe(12);
  });

  it('reads any key from LOYALTYD_SECTION__KEY', () => {
    const config = loadConfig({
      env: {
        LOYALTYD_HTTP__BODY_LIMIT_BYTES: '2048',
        LOYALTYD_AUTH__BEARER_TTL_SECONDS: '60',
        LOYALTYD_MAIL__FROM: 'shop@example.com',
      },
    });
    expect(config.http.body_limit_bytes).toBe(2048);
    expect(config.auth.bearer_ttl_seconds).toBe(60);
    expect(config.mail.from).toBe('shop@example.com');
  });

  it('lets the environment win over the file and flags win over the environment', () => {
    const file = configFile({ http: { port: 9090 }, data_dir: '/from/file' });
    const fromEnv = loadConfig({ file, env: { LOYALTYD_PORT: '9191' } });
    expect(fromEnv.http.port).toBe(9191);
    expect(fromEnv.data_dir).toBe('/from/file');
    const fromFlags = loadConfig({ file, env: { LOYALTYD_PORT: '9191' }, overrides: { 'http.port': '9292', data_dir: undefined } });
    expect(fromFlags.http.port).toBe(9292);
    expect(fromFlags.data_dir).toBe('/from/file');
  });

  it('refuses a social network without the issuer and audience its tokens must name', () => {
    const file = configFile({ social_networks: { google: { keys_file: '/keys/google.jwks.json' } } });
    const error = configError(() => loadConfig({ file, env: {} }));
    expect(error.message).toContain('social_networks.google.issuer');
  });

  it('ignores environment variables without the LOYALTYD_ prefix', () => {
    const config = loadConfig({ env: { PORT: '1234', HTTP__PORT: '1234' } });
    expect(config.http.port).toBe(8080);
  });

  it('refuses LOYALTYD_PORT=abc naming http.port', () => {
    const error = configError(() => loadConfig({ env: { LOYALTYD_PORT: 'abc' } }));
    expect(error.message).toContain('http.port');
  });

  it('refuses a port above 65535 naming http.port', () => {
    const error = configError(() => loadConfig({ env: { LOYALTYD_HTTP__PORT: '70000' } }));
    expect(error.message).toContain('http.port');
  });

  it('refuses mode shop in a file naming mode', () => {
    const error = configError(() => loadConfig({ file: configFile({ mode: 'shop' }), env: {} }));
    expect(error.message).toMatch(/config key mode\b/);
  });

  it('refuses a hub url that is no URL naming hub.url', () => {
    const error = configError(() => loadConfig({ env: { LOYALTYD_HUB_URL: 'not a url' } }));
    expect(error.message).toContain('hub.url');
  });

  it('refuses an unknown time zone naming time_zone', () => {
    const error = configError(() => loadConfig({ env: { LOYALTYD_TIME_ZONE: 'Europe/Atlantis' } }));
    expect(error.message).toContain('time_zone');
  });

  it('refuses an unknown top-level key in the file naming it', () => {
    const error = configError(() => loadConfig({ file: configFile({ colour: 'blue' }), env: {} }));
    expect(error.message).toContain('colour');
  });

  it('refuses an unknown key inside a section naming its full dotted path', () => {
    const error = configError(() => loadConfig({ file: configFile({ http: { prot: 80 } }), env: {} }));
    expect(error.message).toContain('http.prot');
  });

  it('refuses an unknown LOYALTYD_SECTION__KEY naming its dotted path', () => {
    const error = configError(() => loadConfig({ env: { LOYALTYD_SYNC__INTERVAL: '5' } }));
    expect(error.message).toContain('sync.interval');
  });

  it('refuses a __proto__ key in the file as unknown and leaves Object.prototype alone', () => {
    const file = configFile('{"__proto__": {"polluted_by_config": "yes"}, "http": {"__proto__": {"port": 1}}}');
    const error = configError(() => loadConfig({ file, env: {} }));
    expect(error.message).toContain('config key __proto__: unknown key');
    expect(error.message).toContain('config key http.__proto__: unknown key');
    expect(Object.hasOwn(Object.prototype, 'polluted_by_config')).toBe(false);
    expect(({} as Record<string, unknown>).polluted_by_config).toBeUndefined();
  });

  it('refuses a file that is not valid JSON naming the file', () => {
    const file = configFile('{ "mode": "hub", }');
    const error = configError(() => loadConfig({ file, env: {} }));
    expect(error.message).toContain(file);
    expect(error.message).toContain('not valid JSON');
  });

  it('refuses a file holding a JSON array naming the file', () => {
    const file = configFile('[1, 2]');
    const error = configError(() => loadConfig({ file, env: {} }));
    expect(error.message).toContain(file);
  });

  it('refuses a missing file naming the file', () => {
    const file = join(folder, 'no-such-config.json');
    const error = configError(() => loadConfig({ file, env: {} }));
    expect(error.message).toContain(file);
  });

  it('names every bad key when several are wrong', () => {
    const error = configError(() => loadConfig({ file: configFile({ mode: 'shop' }), env: { LOYALTYD_PORT: 'abc' } }));
    expect(error.message).toContain('mode');
    expect(error.message).toContain('http.port');
  });
});
