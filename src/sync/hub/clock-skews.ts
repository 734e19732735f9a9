/**
 * A store whose stamps run ahead of the hub's clock past `sync.max_clock_skew_seconds` (an
 * in-store server after a bad NTP step): its commands are applied at the hub's time
 * (src/sync/hub/hub-operations.ts), never rejected, and the skew is listed at the hub as a
 * conflict of that node, its newest figure replacing the last (`sync conflicts`, /status).
 * The store learns it from the push's answer (`sync status`).
 */
import type { Statement } from '../../db/engine.js';
import { msOfStamp } from '../../core/hlc.js';
import type { IdGenerator } from '../../core/ids.js';
import type { Db } from '../../db/open.js';
import type { PushedCommand } from '../protocol/protocol.js';

export class ClockSkews {
  private readonly upsert: Statement<[string, string, string, string]>;

  constructor(
    db: Db,
    private readonly newId: IdGenerator,
  ) {
    this.upsert = db.prepare(
      `INSERT INTO sync_conflicts (id, kind, entity, entity_id, detail, detected_at) VALUES (?, 'clock_skew', 'nodes', ?, ?, ?)
       ON CONFLICT (kind, entity, entity_id) DO UPDATE SET detail = excluded.detail, detected_at = excluded.detected_at`,
    );
  }

  list(nodeId: string, command: Pick<PushedCommand, 'command_id' | 'hlc'>, now: number): void {
    const aheadSeconds = Math.round((msOfStamp(command.hlc) - now) / 1000);
    this.upsert.run(
      this.newId(),
      nodeId,
      JSON.stringify({ ahead_seconds: aheadSeconds, command_id: command.command_id, stamp: command.hlc }),
      new Date(now).toISOString(),
    );
  }
}
