/**
 * Store groups as master data loads them: the API has no call that writes a group or puts a
 * store in one, so these are their one write path. Records keep the ids they have in the
 * source system, and are loaded on the hub, reaching stores through the change feed.
 */
import type { WritePath } from '../../db/write-path.js';
import { badRequest, invalidParam, type InvalidParam } from '../../core/errors.js';
import type { IdGenerator } from '../../core/ids.js';
import type { StoreGroupsRepo } from './store-groups.repo.js';
import type { ImportedStoreGroupRecord, ImportedStoreGroup } from './store-groups.schemas.js';
import type { StoresRepo } from './stores.repo.js';

export class StoreGroupsService {
  constructor(
    private readonly repo: StoreGroupsRepo,
    private readonly stores: StoresRepo,
    private readonly writes: WritePath,
    private readonly newId: IdGenerator,
  ) {}

  importGroup(record: ImportedStoreGroup): void {
    const id = record.store_group_id ?? this.newId();
    if (this.repo.groupExists(id)) throw invalidParam('store_group_id', 'already_exists', id);
    const row = { id, name: record.name };
    this.writes.write(null, (tx) => this.repo.insertGroup(tx, row));
  }

  importGroupRecord(record: ImportedStoreGroupRecord): void {
    const id = record.store_group_record_id ?? this.newId();
    if (this.repo.recordExists(id)) throw invalidParam('store_group_record_id', 'already_exists', id);
    const missing: InvalidParam[] = [];
    if (!this.stores.storeById(record.store_id)) missing.push({ name: 'store_id', reason: 'not_found', value: record.store_id });
    if (!this.repo.groupExists(record.store_group_id)) missing.push({ name: 'store_group_id', reason: 'not_found', value: record.store_group_id });
    if (missing.length) throw badRequest(missing);
    if (this.repo.recordIdOf(record.store_id, record.store_group_id) !== undefined) {
      throw invalidParam('store_group_id', 'relation_already_exists', record.store_group_id, 'The store is already in this group');
    }
    const row = { id, store_id: record.store_id, store_group_id: record.store_group_id };
    this.writes.write(null, (tx) => this.repo.insertRecord(tx, row));
  }
}
