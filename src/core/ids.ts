/**
 * Record ids (DESIGN §3): 26 lowercase hex characters, 48-bit milliseconds followed by
 * 56 random bits. Made by whichever node creates the record, so records created offline
 * never collide. Within one millisecond the random part is incremented rather than drawn
 * again, so ids from one generator are strictly increasing.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from './clock.js';

const LOW_SPAN = 2 ** 32;
const HIGH_SPAN = 2 ** 24;

export type IdGenerator = () => string;

export function createIdGenerator(clock: Clock): IdGenerator {
  let lastMs = -1;
  let high = 0;
  let low = 0;
  return () => {
    const now = clock();
    if (now > lastMs) {
      lastMs = now;
      const random = randomBytes(7);
      high = random.readUIntBE(0, 3);
      low = random.readUInt32BE(3);
    } else {
      low += 1;
      if (low === LOW_SPAN) {
        low = 0;
        high += 1;
        if (high === HIGH_SPAN) {
          high = 0;
          lastMs += 1;
        }
      }
    }
    return lastMs.toString(16).padStart(12, '0') + high.toString(16).padStart(6, '0') + low.toString(16).padStart(8, '0');
  };
}

export const ID_PATTERN = /^[0-9a-f]{26}$/;

export function idTime(id: string): number {
  return parseInt(id.slice(0, 12), 16);
}

/**
 * A derived record's id (DESIGN §5): the purchase's time part, then a hash of the purchase
 * id and the record's purpose — so whichever node derives a purchase's effect, and however
 * often, it is one record.
 */
export function derivedId(purchaseId: string, purpose: string): string {
  return purchaseId.slice(0, 12) + createHash('sha256').update(`${purchaseId}:${purpose}`).digest('hex').slice(0, 14);
}
