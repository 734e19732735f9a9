import type { WritePath } from '../../db/write-path.js';
import { invalidParam, notFound } from '../../core/errors.js';
import type { Paging } from '../../core/paging.js';
import { toPropertyRecord } from '../property-records.mapper.js';
import { propertyRecordId, toStoreGroupRecord } from './store-records.mappers.js';
import type { StoreRecordsRepo, PropertyRecordRow } from './store-records.repo.js';
import type { CreatePropertyRecord, PropertyRecordsAnswer, StoreGroupRecordsAnswer, UpdatePropertyRecord } from './store-records.schemas.js';
import type { StoresService } from './stores.service.js';

export class StoreRecordsService {
  constructor(
    private readonly repo: StoreRecordsRepo,
    private readonly stores: StoresService,
    private readonly writes: WritePath,
    private readonly timeZone: string,
  ) {}

  createPropertyRecord(storeId: string, { property_record: record }: CreatePropertyRecord): { property_record_id: string } {
    this.stores.existingStore(storeId);
    const id = propertyRecordId(record.property_id, storeId);
    if (this.repo.propertyRecordById(id)) throw invalidParam('property_record.property_id', 'already_exists', record.property_id);
    const row = {
      id,
      store_id: storeId,
      property_id: record.property_id,
      property_name: record.property_name ?? record.property_id,
      property_value: JSON.stringify(record.property_value),
    };
    this.writes.write({ kind: 'store-property-records.create', payload: { property_record: row } }, (tx) => this.repo.insertPropertyRecord(tx, row));
    return { property_record_id: id };
  }

  updatePropertyRecord(storeId: string, id: string, { property_record: record }: UpdatePropertyRecord): void {
    const existing = this.existingPropertyRecord(storeId, id);
    if (record.property_id !== undefined && record.property_id !== existing.property_id) {
      throw invalidParam('property_record.property_id', 'not_allowed_value', record.property_id, `The record is of property ${existing.property_id}`);
    }
    const changes = {
      property_name: record.property_name ?? existing.property_name,
      property_value: JSON.stringify(record.property_value),
    };
    this.writes.write({ kind: 'store-property-records.update', payload: { property_record_id: id, property_record: changes } }, (tx) =>
      this.repo.updatePropertyRecord(tx, id, changes),
    );
  }

  deletePropertyRecord(storeId: string, id: string): void {
    this.existingPropertyRecord(storeId, id);
    this.writes.write({ kind: 'store-property-records.delete', payload: { property_record_id: id } }, (tx) => this.repo.removePropertyRecord(tx, id));
  }

  propertyRecords(storeId: string, paging: Paging): PropertyRecordsAnswer {
    this.stores.existingStore(storeId);
    const page = this.repo.propertyRecordsOf(storeId, paging);
    return { property_records: page.items.map((row) => toPropertyRecord(row, this.timeZone)), total_items: page.total };
  }

  groupRecords(storeId: string, paging: Paging): StoreGroupRecordsAnswer {
    this.stores.existingStore(storeId);
    const page = this.repo.groupRecordsOf(storeId, paging);
    return { store_group_records: page.items.map((row) => toStoreGroupRecord(row, this.timeZone)), total_items: page.total };
  }

  private existingPropertyRecord(storeId: string, id: string): PropertyRecordRow {
    this.stores.existingStore(storeId);
    const row = this.repo.propertyRecordById(id);
    if (!row || row.store_id !== storeId) throw notFound('property-records', id);
    return row;
  }
}
