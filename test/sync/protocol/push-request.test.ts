import { describe, expect, it } from 'vitest';
import { PushRequest, pushRequestText, type OutboxCommand, type PushedCommand } from '../../../src/sync/protocol/protocol.js';

const commands: PushedCommand[] = [
  {
    seq: 1,
    command_id: 'c-1',
    kind: 'purchases.send',
    payload: { bill: { bill_id: 'B "1"', items: [{ price: 65, name: 'Kávička\n\u2028' }] }, note: null },
    changes: [
      {
        entity: 'purchases',
        entity_id: 'p1',
        op: 'insert',
        row: { id: 'p1', total_price_minor: 6500, bill: '{"a":1}', customer_id: null },
        hlc: '0190000000a1-0001-s1',
      },
    ],
    hlc: '0190000000a1-0001-s1',
  },
  {
    seq: 2,
    command_id: 'c-"2"\\',
    kind: 'points.redeem',
    payload: [],
    changes: [{ entity: 'point_records', entity_id: 'r1', op: 'delete', row: null, hlc: '0190000000a2-0000-s1' }],
    hlc: '0190000000a2-0000-s1',
    operation: {
      call: {
        iface: 'enterprise',
        input: { params: {}, query: {}, body: { note: 'ü "q"' } },
        principal: { kind: 'user', userId: 'u1', scheme: 'bearer' },
      },
      ids: ['0190000000a2000000000000aa'],
    },
  },
];

/** The outbox keeps a command's payload, changes and operation as JSON.stringify wrote them (src/db/write-path.ts); a protocol-1 command has no operation. */
const stored = (command: PushedCommand): OutboxCommand => ({
  ...command,
  payload: JSON.stringify(command.payload),
  changes: JSON.stringify(command.changes),
  operation: command.operation === undefined ? null : JSON.stringify(command.operation),
});

describe('pushRequestText', () => {
  it('writes the request a push of the parsed commands would send', () => {
    const text = pushRequestText('gen-1', commands.map(stored));
    expect(JSON.parse(text)).toEqual({ generation: 'gen-1', commands });
    expect(text).toBe(JSON.stringify({ generation: 'gen-1', commands }));
    expect(PushRequest.parse(JSON.parse(text)).commands).toHaveLength(2);
  });

  it('writes an empty batch as an empty list', () => {
    expect(JSON.parse(pushRequestText('g', []))).toEqual({ generation: 'g', commands: [] });
  });
});
