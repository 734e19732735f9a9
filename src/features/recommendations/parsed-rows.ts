/**
 * Model rows parsed once per version. A row read again with the same stamp is not parsed
 * again: best sellers and the neighbours of popular products are read by most answers and
 * change far less often.
 */
export class ParsedRows<Row extends { id: string; hlc: string }, T> {
  private readonly rows = new Map<string, { hlc: string; value: T }>();

  constructor(
    private readonly parse: (row: Row) => T,
    private readonly capacity: number,
  ) {}

  of(row: Row): T {
    const cached = this.rows.get(row.id);
    if (cached?.hlc === row.hlc) return cached.value;
    const value = this.parse(row);
    // The oldest entry goes first: a Map keeps insertion order.
    if (this.rows.size >= this.capacity) this.rows.delete(this.rows.keys().next().value!);
    this.rows.set(row.id, { hlc: row.hlc, value });
    return value;
  }
}
