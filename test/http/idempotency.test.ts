import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials } from '../../src/demo/demo.js';
import { basic, call, startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const tokenBody = (deviceId: string) => ({ device: { device_id: deviceId }, setup: { external_application_id: demoCredentials.external_application_id } });
const createToken = (key: string, body: unknown) =>
  call('POST', `${server.api('customer')}/tokens`, { headers: { ...basic(demoCredentials.api_user, ''), 'idempotency-key': key }, body });
const tokenCount = () => (server.app.node.db.prepare('SELECT count(*) AS n FROM tokens').get() as { n: number }).n;

describe('Idempotency-Key', () => {
  it('a replay with the same key and body answers the stored response and writes nothing more', async () => {
    const before = tokenCount();
    const first = await createToken('replay-1', tokenBody('device-a'));
    const second = await createToken('replay-1', tokenBody('device-a'));
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(tokenCount()).toBe(before + 1);
  });

  it('the same key with another body answers 422 in the error envelope', async () => {
    await createToken('replay-2', tokenBody('device-b'));
    const reused = await createToken('replay-2', tokenBody('device-c'));
    expect(reused.status).toBe(422);
    expect(reused.body.error.exception).toBe('idempotency_key_reused_exception');
  });

  it('requests racing with one key run the write once', async () => {
    const before = tokenCount();
    const answers = await Promise.all([1, 2, 3, 4].map(() => createToken('race-1', tokenBody('device-d'))));
    expect(new Set(answers.map((answer) => answer.body.data.token_id)).size).toBe(1);
    expect(tokenCount()).toBe(before + 1);
  });

  it('a refused request is replayed as refused, and a new key runs afresh', async () => {
    const refused = await createToken('refused-1', { device: {} });
    expect(refused.status).toBe(400);
    expect((await createToken('refused-1', { device: {} })).body).toEqual(refused.body);
    expect((await createToken('refused-2', tokenBody('device-e'))).status).toBe(201);
  });

  it('keys are scoped to the caller: another api user may use the same key', async () => {
    const otherApiUser = server.app.services.apiUsers.create('second app').user_name;
    const mine = await createToken('shared-key', tokenBody('device-f'));
    const theirs = await call('POST', `${server.api('customer')}/tokens`, {
      headers: { ...basic(otherApiUser, ''), 'idempotency-key': 'shared-key' },
      body: tokenBody('device-f'),
    });
    expect(theirs.status).toBe(201);
    expect(theirs.body.data.token_id).not.toBe(mine.body.data.token_id);
  });

  it('a key longer than 255 characters answers 400 invalid_value_format', async () => {
    const response = await createToken('k'.repeat(256), tokenBody('device-g'));
    expect(response.status).toBe(400);
    expect(response.body.error.error_data.invalid_params[0].reason).toBe('invalid_value_format');
  });
});
