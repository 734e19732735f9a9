/**
 * Contract rows: one call each, the status it must answer, and its answer checked against the
 * response of the same operation and status in the spec — the 2021 file unless the row says
 * why not. Used by the contract tests of writes and actions.
 */
import { expect, it } from 'vitest';
import type { Interface } from '../../src/http/interfaces.js';
import type { OpenApiContract } from './openapi.js';
import type { JsonResponse } from './server.js';

export interface ContractRow {
  method: 'get' | 'post' | 'put' | 'delete';
  /** The path template as the spec names it. */
  specPath: string;
  iface: Interface;
  status: 200 | 201 | 204 | 400 | 401 | 403 | 404;
  /** For a 400, the reason of the parameter refused. */
  reason?: string;
  /** Where the served operation deliberately differs from the 2021 spec's, the difference. */
  differs?: string;
  /** The spec the answer is checked against, when the difference is that the 2021 file lacks it. */
  spec?: OpenApiContract;
  /** A deliberate difference of a field, undone before the check; `differs` names it. */
  adapt?(body: any): unknown;
  /**
   * Every field the schema lists must be present: the default for 200 and 201, whose 2021
   * schemas mark nothing as required, so an answer without its id would otherwise conform.
   */
  complete?: boolean;
  send(): Promise<JsonResponse>;
}

/**
 * One test per row. A 204 must have no body and the spec must document it without one; any
 * other answer must match the spec's schema for its status.
 */
export function contractRows(rows: ContractRow[], contract: OpenApiContract): void {
  for (const row of rows) {
    const title = `${row.method.toUpperCase()} ${row.specPath} ${row.status}${row.reason ? ` ${row.reason}` : ''} (${row.iface})${row.differs ? `, ${row.differs}` : ''}`;
    it(title, async () => {
      const spec = row.spec ?? contract;
      const response = await row.send();
      expect(response.status, JSON.stringify(response.body)).toBe(row.status);
      expect(spec.hasOperation(row.method, row.specPath, row.status)).toBe(true);
      if (row.status === 204) {
        expect(response.body).toBe('');
        expect(spec.documentsNoBody(row.method, row.specPath, 204)).toBe(true);
      } else {
        const body = row.adapt ? row.adapt(response.body) : response.body;
        expect(spec.check(row.method, row.specPath, row.status, body, { complete: row.complete ?? row.status < 300 })).toEqual([]);
      }
      if (row.reason) expect(response.body.error.error_data.invalid_params[0].reason).toBe(row.reason);
    });
  }
}
