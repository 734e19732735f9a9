import type { Db } from '../../db/open.js';
import type { WriteTransaction, WrittenRow } from '../../db/write-path.js';
import type { StoreGroupRecordsRow, StoreGroupsRow } from '../../db/tables.generated.js';

export class StoreGroupsRepo {
  private readonly group;
  private readonly record;
  private readonly membership;

  constructor(db: Db) {
    this.group = db.prepare<[string], Pick<StoreGroupsRow, 'id'>>('SELECT id FROM store_groups WHERE id = ?');
    this.record = db.prepare<[string], Pick<StoreGroupRecordsRow, 'id'>>('SELECT id FROM store_group_records WHERE id = ?');
    this.membership = db.prepare<[string, string], Pick<StoreGroupRecordsRow, 'id'>>(
      'SELECT id FROM store_group_records WHERE store_id = ? AND store_group_id = ? LIMIT 1',
    );
  }

  groupExists(id: string): boolean {
    return this.group.get(id) !== undefined;
  }

  recordExists(id: string): boolean {
    return this.record.get(id) !== undefined;
  }

  recordIdOf(storeId: string, storeGroupId: string): string | undefined {
    return this.membership.get(storeId, storeGroupId)?.id;
  }

  insertGroup(tx: WriteTransaction, row: WrittenRow<'store_groups'>): void {
    tx.insert('store_groups', row);
  }

  insertRecord(tx: WriteTransaction, row: WrittenRow<'store_group_records'>): void {
    tx.insert('store_group_records', row);
  }
}
