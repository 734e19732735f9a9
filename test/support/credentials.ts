/** Hashes and headers computed in tests from their definitions, not by the code under test. */
import { createHash } from 'node:crypto';
import { basic } from './server.js';

export const md5 = (text: string) => createHash('md5').update(text).digest('hex');
export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The UTC hour, `YYYYMMDDHH`, that the deprecated hourly Basic scheme mixes into its secret. */
export const utcHour = (at: number) => new Date(at).toISOString().slice(0, 13).replace(/[-T]/g, '');

/** The deprecated hourly Basic header (DESIGN §4): the login, and SHA-256 of the password's MD5 followed by the UTC hour. */
export function hourlyBasic(login: string, password: string, hour: string): Record<string, string> {
  return basic(login, sha256(md5(password) + hour));
}
