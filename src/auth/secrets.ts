import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** A credential handed to a client once; only its hash is stored. */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('hex');
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A short secret's hash under a key (src/auth/node-key.ts): without the key, trying every code finds nothing. */
export function keyedHashHex(key: Buffer, text: string): string {
  return createHmac('sha256', key).update(text).digest('hex');
}

export function md5Hex(text: string): string {
  return createHash('md5').update(text).digest('hex');
}

export function equalSecrets(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

const ALPHANUMERIC = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const DIGITS = '0123456789';

/** A short code a person can type: type 1 alphanumeric, type 2 numeric. */
export function shortCode(type: 1 | 2, length = 6): string {
  const alphabet = type === 1 ? ALPHANUMERIC : DIGITS;
  let code = '';
  for (let i = 0; i < length; i += 1) code += alphabet[randomInt(alphabet.length)];
  return code;
}

export function decodeBasic(header: string | undefined): { user: string; secret: string } | undefined {
  if (!header) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { user: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

export function decodeBearer(header: string | undefined): string | undefined {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match ? match[1] : undefined;
}
