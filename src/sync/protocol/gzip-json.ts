/**
 * Pulled pages gzipped on the wire. Every store pulls every customer's changed state and
 * profile, ~2 KB for each bill sold anywhere in the chain (fleet bench): for 500 stores that is
 * the chain's whole day of bills, to each of them. JSON of repeated column names and ids
 * packs several times over. Compression and inflation run in libuv's thread pool, so neither
 * the hub's loop nor the store's, which the tills wait on, does the work. A caller that does
 * not say it accepts gzip (a store of an earlier release) gets the page as it is.
 */
import type { Request, Response } from 'express';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';

const zip = promisify(gzip);
const unzip = promisify(gunzip);

/** Answers a JSON text, gzipped when the request accepts gzip. */
export async function sendJsonGzipped(request: Request, response: Response, text: string): Promise<void> {
  response.type('application/json').vary('Accept-Encoding');
  if (request.acceptsEncodings('gzip') !== 'gzip') {
    response.send(text);
    return;
  }
  response.set('Content-Encoding', 'gzip').send(await zip(text));
}

/** A response body as text, inflated when its Content-Encoding says gzip. */
export async function readGzipped(body: Buffer, contentEncoding: string | string[] | undefined): Promise<string> {
  return (contentEncoding === 'gzip' ? await unzip(body) : body).toString('utf8');
}
