/**
 * An answer already written as JSON, in UTF-8 pieces, for a handler that can put its answer
 * together faster than JSON.stringify can walk its objects (recommended-best-rewards, whose
 * rewards are written out once per reward definition). The cash-desk lane copies the
 * pieces into the answer as they are; whatever else serializes it — express's res.json,
 * the idempotency store — gets the value back through toJSON, so it reads as the object it
 * stands for everywhere.
 */
export class JsonText {
  constructor(readonly pieces: readonly Uint8Array[]) {}

  bytes(): Buffer {
    return Buffer.concat(this.pieces);
  }

  toJSON(): unknown {
    return JSON.parse(this.bytes().toString('utf8'));
  }
}

const DATA_OPEN = Buffer.from('{"data":');
const DATA_CLOSE = Buffer.from('}');

/** The answer's `{ "data": … }` envelope around a handler's result. */
export function inDataEnvelope(data: unknown): unknown {
  return data instanceof JsonText ? new JsonText([DATA_OPEN, ...data.pieces, DATA_CLOSE]) : { data };
}
