/**
 * Who reads `/metrics` and the detail of `/health`: a caller from `ops.open_addresses`
 * (loopback by default) as it is, anyone else with `Authorization: Bearer <ops.token>`. The
 * caller's address is express's `request.ip`: the socket's, or the address a proxy on loopback
 * forwards in X-Forwarded-For (src/root/http.ts trusts only loopback), so a caller behind such
 * a proxy is judged by its own address and cannot name one it does not have.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { addressMatcher } from '../core/addresses.js';
import type { Config } from '../core/config.js';

export type OpsAccess = (request: Request) => boolean;

export function opsAccess(ops: Config['ops']): OpsAccess {
  const open = addressMatcher(ops.open_addresses);
  const token = ops.token === undefined ? undefined : digest(ops.token);
  return (request) => {
    if (open(request.ip)) return true;
    const presented = /^Bearer (.+)$/i.exec(request.get('authorization') ?? '')?.[1];
    // Digests of equal length, compared in constant time: the answer's timing tells nothing of the token.
    return token !== undefined && presented !== undefined && timingSafeEqual(digest(presented), token);
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
