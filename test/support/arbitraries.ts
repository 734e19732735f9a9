/** fast-check arbitraries the property tests share. */
import fc from 'fast-check';

/** None, one or two of `pool`'s items, as a reward's condition or a bill names them. */
export const subset = (pool: string[]) => fc.subarray(pool, { maxLength: 2 });
