/**
 * An answer already written as JSON, in UTF-8, for a handler that can write its answer
 * faster than JSON.stringify can walk its objects (recommended-best-rewards, whose rewards
 * are written out once per reward definition). The cash-desk lane sends the bytes as they
 * are; whatever else serializes it — express's res.json, the idempotency store — gets the
 * value back through toJSON, so it reads as the object it stands for everywhere.
 */
export class JsonText {
  constructor(readonly bytes: Buffer) {}

  toJSON(): unknown {
    return JSON.parse(this.bytes.toString('utf8'));
  }
}

const DATA_OPEN = Buffer.from('{"data":');
const DATA_CLOSE = Buffer.from('}');

/** The answer's `{ "data": … }` envelope around a handler's result. */
export function inDataEnvelope(data: unknown): unknown {
  return data instanceof JsonText ? new JsonText(Buffer.concat([DATA_OPEN, data.bytes, DATA_CLOSE])) : { data };
}

/**
 * Writes JSON into one growing buffer from pieces already encoded and from whole numbers,
 * so that an answer of a few hundred pieces is copied once rather than joined as a string
 * and encoded again.
 */
export class JsonWriter {
  private buffer = Buffer.allocUnsafe(16_384);
  private length = 0;

  piece(bytes: Uint8Array): this {
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
    return this;
  }

  /** A whole number of up to 15 digits, as JSON writes it. */
  integer(value: number): this {
    this.reserve(16);
    this.length += this.buffer.write(String(value), this.length, 'latin1');
    return this;
  }

  done(): JsonText {
    return new JsonText(this.buffer.subarray(0, this.length));
  }

  private reserve(more: number): void {
    if (this.length + more <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + more));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
}
