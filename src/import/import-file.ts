/**
 * `loyaltyd import`: validates every record of a file with the same zod schema as the API,
 * writes accepted records in batched transactions, and reports rejected ones with their line
 * number and reason without stopping. A batch is first written in one go; if a record in it
 * is rejected by its service, the batch is rolled back and written again with each record in
 * its own savepoint, so a rejected record leaves nothing behind and the rest still load.
 */
import type { z } from 'zod';
import type { Db } from '../db/open.js';
import type { WritePath } from '../db/write-path.js';
import { AppError } from '../core/errors.js';
import { fromZodIssues } from '../core/validation-errors.js';
import { readRecords, type FileFormat } from './read-records.js';

export interface Importer<T = unknown> {
  /** One record as the API's schema for this resource describes it. */
  schema: z.ZodType<T>;
  /**
   * Writes one validated record through the write path; throws AppError to reject it.
   * `source` is the record as the file gave it, before the schema's defaults.
   */
  write(record: T, source: Record<string, unknown>): void;
}

export interface Rejection {
  line: number;
  reason: string;
}

export interface ImportProgress {
  read: number;
  imported: number;
  rejected: number;
  bytesRead?: number;
}

export interface ImportResult extends ImportProgress {
  rejections: Rejection[];
}

export interface ImportOptions {
  batchSize?: number;
  /** Called after every batch. */
  onProgress?(progress: ImportProgress): void;
  onRejection?(rejection: Rejection): void;
  /** Rejections kept in the result; all are still counted and reported through onRejection. */
  keepRejections?: number;
}

/**
 * Records per transaction. Larger batches cost fewer commits and checkpoints but hold more
 * records in memory; this size keeps the import bench within both its time and its memory
 * targets (test/bench/README.md). A batch with a rejected record is written a second time,
 * record by record.
 */
export const DEFAULT_BATCH_SIZE = 15_000;

export async function importFile<T>(
  { db, writes }: { db: Db; writes: WritePath },
  importer: Importer<T>,
  file: string,
  format: FileFormat,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const result: ImportResult = { read: 0, imported: 0, rejected: 0, rejections: [] };
  const reject = (rejection: Rejection) => {
    result.rejected += 1;
    if (result.rejections.length < (options.keepRejections ?? 1000)) result.rejections.push(rejection);
    options.onRejection?.(rejection);
  };
  type Accepted = { line: number; record: T; source: Record<string, unknown> };
  let batch: Accepted[] = [];
  const writeAll = db.transaction((records: Accepted[]) =>
    writes.joiningTransaction(() => {
      for (const { record, source } of records) importer.write(record, source);
    }),
  );
  const writeEach = db.transaction((records: Accepted[]) => {
    for (const { line, record, source } of records) {
      try {
        importer.write(record, source);
        result.imported += 1;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        reject({ line, reason: describe(error) });
      }
    }
  });
  const flush = (records: Accepted[]) => {
    try {
      writeAll(records);
      result.imported += records.length;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      writeEach(records);
    }
  };
  const reading = { bytesRead: 0 };
  for await (const source of readRecords(file, format, reading)) {
    result.read += 1;
    if ('unreadable' in source.value) {
      reject({ line: source.line, reason: String(source.value.unreadable) });
      continue;
    }
    const parsed = parseRecord(importer.schema, source.value, source.fromText);
    if (!parsed.success) {
      reject({ line: source.line, reason: describe(fromZodIssues(parsed.issues, source.value, '')) });
      continue;
    }
    batch.push({ line: source.line, record: parsed.data, source: source.value });
    if (batch.length >= batchSize) {
      flush(batch);
      batch = [];
      options.onProgress?.({ ...result, bytesRead: reading.bytesRead });
    }
  }
  if (batch.length) flush(batch);
  options.onProgress?.({ ...result, bytesRead: reading.bytesRead });
  return result;
}

type Parsed<T> = { success: true; data: T } | { success: false; issues: z.core.$ZodIssue[] };

/**
 * CSV cells are text; where the schema wants a number or a boolean and the text reads as
 * one, the cell is converted and the record checked again.
 */
function parseRecord<T>(schema: z.ZodType<T>, record: Record<string, unknown>, fromText: boolean): Parsed<T> {
  let attempt = schema.safeParse(record);
  for (let round = 0; !attempt.success && fromText && round < 3; round += 1) {
    const converted = convertTextCells(record, attempt.error.issues);
    if (!converted) break;
    attempt = schema.safeParse(record);
  }
  return attempt.success ? { success: true, data: attempt.data } : { success: false, issues: attempt.error.issues };
}

function convertTextCells(record: Record<string, unknown>, issues: z.core.$ZodIssue[]): boolean {
  let changed = false;
  for (const issue of issues) {
    if (issue.code !== 'invalid_type' || issue.path.length === 0) continue;
    const parent = issue.path
      .slice(0, -1)
      .reduce<unknown>((node, key) => (node as Record<PropertyKey, unknown> | undefined)?.[key as PropertyKey], record);
    const key = issue.path[issue.path.length - 1] as PropertyKey;
    if (typeof parent !== 'object' || parent === null) continue;
    const text = (parent as Record<PropertyKey, unknown>)[key];
    if (typeof text !== 'string') continue;
    const value = issue.expected === 'boolean' ? readBoolean(text) : issue.expected === 'number' ? readNumber(text) : undefined;
    if (value === undefined) continue;
    (parent as Record<PropertyKey, unknown>)[key] = value;
    changed = true;
  }
  return changed;
}

function readBoolean(text: string): boolean | undefined {
  if (/^(true|1)$/i.test(text)) return true;
  if (/^(false|0)$/i.test(text)) return false;
  return undefined;
}

function readNumber(text: string): number | undefined {
  return /^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : undefined;
}

function describe(error: AppError): string {
  const params = (error.body.error_data?.invalid_params ?? []) as { name: string; reason: string; message?: string }[];
  if (params.length === 0) return error.body.detail;
  return params.map((param) => `${param.name}: ${param.reason}`).join('; ');
}
