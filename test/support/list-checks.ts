/**
 * The common collection rules of interface.md "Conventions", asserted the same way for every
 * collection: the data envelope with the plural key, total_items counting every match and not
 * only the page, sort in both directions, the paging edges, and 400 naming a bad paging value.
 */
import { describe, expect, it } from 'vitest';
import { expectError } from './expect-error.js';
import { call, type JsonResponse } from './server.js';

export interface ListUnderTest {
  /** The collection's full URL, without a query. */
  url: string;
  headers: Record<string, string>;
  /** The plural key of the collection in data. */
  plural: string;
  /** The item field holding the record id, which every collection sorts by. */
  idField: string;
}

/**
 * Registers the common collection checks; `list` is read when the checks run, after the suite's
 * setup. `invalidFilters` adds the collection's own filters: a query with a bad value, and the
 * parameter the 400 must name.
 */
export function listChecks(title: string, list: () => ListUnderTest, invalidFilters: [query: string, name: string][] = []): void {
  describe(`${title}: the common collection rules`, () => {
    const get = (query: string): Promise<JsonResponse> => {
      const { url, headers } = list();
      return call('GET', `${url}?${query}`, { headers });
    };
    const ids = (response: JsonResponse): string[] => {
      const { plural, idField } = list();
      return (response.body.data[plural] as Record<string, unknown>[]).map((item) => String(item[idField]));
    };

    it('answers the data envelope with the plural key, and total_items counts every match, not the page', async () => {
      const all = await get('count=1000');
      expect(all.status).toBe(200);
      expect(Object.keys(all.body)).toEqual(['data']);
      expect(Object.keys(all.body.data).sort()).toEqual([list().plural, 'total_items'].sort());
      const total = all.body.data.total_items as number;
      expect(total, 'the suite must hold at least two records for this check').toBeGreaterThanOrEqual(2);
      expect(ids(all)).toHaveLength(total);
      const page = await get('count=1');
      expect(ids(page)).toHaveLength(1);
      expect(page.body.data.total_items).toBe(total);
    });

    it('sorts by the id ascending and descending', async () => {
      const field = list().idField;
      const ascending = ids(await get(`count=1000&sort_field=${field}&sort_direction=ASC`));
      const descending = ids(await get(`count=1000&sort_field=${field}&sort_direction=DESC`));
      expect(ascending).toEqual([...ascending].sort());
      expect(new Set(ascending).size).toBe(ascending.length);
      expect(descending).toEqual([...ascending].reverse());
    });

    it('pages to the edges: the last offset answers the last record, past the end an empty page with the full total', async () => {
      const field = list().idField;
      const all = await get(`count=1000&sort_field=${field}`);
      const total = all.body.data.total_items as number;
      const last = await get(`count=1&offset=${total - 1}&sort_field=${field}`);
      expect(ids(last)).toEqual(ids(all).slice(-1));
      const past = await get(`offset=${total}`);
      expect(past.status).toBe(200);
      expect(ids(past)).toEqual([]);
      expect(past.body.data.total_items).toBe(total);
      const window = await get(`count=2&offset=1&sort_field=${field}`);
      expect(ids(window)).toEqual(ids(all).slice(1, 3));
    });

    it.each([
      ['count=1001', 'count'],
      ['count=0', 'count'],
      ['offset=-1', 'offset'],
      ['count=many', 'count'],
      ['sort_direction=sideways', 'sort_direction'],
      ['sort_field=no_such_field', 'sort_field'],
      ...invalidFilters,
    ])('%s answers 400 naming %s with a reason', async (query, name) => {
      const error = expectError(await get(query), 400, 'invalid_params_exception');
      expect(error.error_data.invalid_params).toEqual([expect.objectContaining({ name, reason: expect.any(String) })]);
    });
  });
}
