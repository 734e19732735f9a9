/**
 * The digest of a command's rows, from their JSON text as JSON.stringify writes the changes
 * (the store's outbox text; the hub's rows of the same operation, written the same way): rows
 * the same code wrote with the same values and stamps have the same digest, so the hub tells
 * whether its rows are a store's without the store sending them (src/sync/hub/hub-operations.ts).
 */
import { createHash } from 'node:crypto';

export function rowsDigest(changesText: string): string {
  return createHash('sha256').update(changesText).digest('base64url').slice(0, 22);
}
