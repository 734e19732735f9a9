/**
 * The conflicts a node lists are read newest first, a few at a time: a store's report to its
 * hub names the newest on every request, and its status page lists them. Nothing deletes a
 * listed conflict, so without an index each read sorted all of them (14 ms at 100,000).
 */
export const sql = `
CREATE INDEX sync_conflicts_by_time ON sync_conflicts (detected_at);
`;
