import { describe, expect, it } from 'vitest';
import { PushedCommand, PushRequest, pushRequestText, type OutboxCommand } from '../../../src/sync/protocol/protocol.js';

const commands: PushedCommand[] = [
  {
    seq: 1,
    command_id: 'c-1',
    kind: 'purchases.send',
    hlc: '0190000000a1-0001-s1',
    operation: {
      call: {
        iface: 'enterprise',
        input: { params: {}, query: {}, body: { bill: { bill_id: 'B "1"', items: [{ price: 65, name: 'Kávička\n\u2028' }] }, note: null } },
        principal: { kind: 'user', userId: 'u1', scheme: 'bearer' },
      },
      as_of: 1_700_000_000_000,
      ids: ['0190000000a1000000000000aa'],
      stamps: ['0190000000a1-0001-s1'],
      digest: 'abcdefghijklmnopqrstuv',
    },
  },
  {
    seq: 2,
    command_id: 'c-"2"\\',
    kind: 'points.redeem',
    hlc: '0190000000a2-0000-s1',
    operation: { continues: true },
  },
];

/** What the outbox keeps of a command besides its operation: its payload and the rows it wrote, neither of which is sent. */
const kept = { payload: '{"bill":{"bill_id":"B \\"1\\""}}', changes: '[{"entity":"point_records","entity_id":"r1","op":"delete","row":null}]' };

/** The outbox keeps a command's operation as JSON.stringify wrote it (src/db/write-path.ts). */
const stored = (command: PushedCommand): OutboxCommand => ({ ...command, ...kept, operation: JSON.stringify(command.operation) });

describe('pushRequestText', () => {
  it('writes the request a push of the parsed commands would send, without the payload or rows the outbox keeps', () => {
    const text = pushRequestText('gen-1', commands.map(stored));
    expect(JSON.parse(text)).toEqual({ generation: 'gen-1', commands });
    expect(text).toBe(JSON.stringify({ generation: 'gen-1', commands }));
    expect(text).not.toContain('"changes"');
    expect(text).not.toContain('"payload"');
    expect(PushRequest.parse(JSON.parse(text)).commands).toHaveLength(2);
  });

  it('sends a command queued without an operation with an empty one, which parses', () => {
    const [command] = commands;
    const text = pushRequestText('gen-1', [{ ...command!, ...kept, operation: null }]);
    const parsed = PushRequest.parse(JSON.parse(text));
    expect(parsed.commands[0]!.operation).toEqual({ ids: [] });
  });

  it('does not parse a command carrying rows, a payload or any field besides its own', () => {
    const [command] = commands;
    for (const extra of [{ changes: [] }, { payload: null }, { note: 1 }]) {
      expect(PushedCommand.safeParse({ ...command, ...extra }).success).toBe(false);
    }
    expect(PushedCommand.safeParse({ ...command, operation: { ids: [], changes: [] } }).success).toBe(false);
    expect(PushedCommand.safeParse(command).success).toBe(true);
  });

  it('writes an empty batch as an empty list', () => {
    expect(JSON.parse(pushRequestText('g', []))).toEqual({ generation: 'g', commands: [] });
  });
});
