/**
 * A node resumes its clock past the newest stamp it holds (src/db/node-identity.ts). Without
 * these indexes that is a scan of the whole change feed and outbox at every start: seconds,
 * and every page of a million-row feed read into the process, on a busy hub or after a
 * large import.
 */
export const sql = `
CREATE INDEX changes_by_hlc ON changes (hlc);
CREATE INDEX outbox_by_hlc ON outbox (hlc);
`;
