/**
 * A store's stamp as the hub keeps it (DESIGN §5 "Clocks"): one further ahead of the hub's
 * clock than `sync.max_clock_skew_seconds` is brought back to the hub's time, in the store's
 * origin, before the hub records it anywhere — the node's progress, its held commands, its
 * pushed-through report. Kept as sent, a stamp ten years ahead would stand as the node's
 * newest for ten years and outrank every stamp compared with it.
 */
import { encodeHlc, msOfStamp, originOfStamp } from '../../core/hlc.js';

export function keptStamp(stamp: string, now: number, maxSkewMs: number): string {
  if (msOfStamp(stamp) - now <= maxSkewMs) return stamp;
  return encodeHlc({ ms: now, counter: 0, node: originOfStamp(stamp) });
}
