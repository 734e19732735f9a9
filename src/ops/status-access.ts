/**
 * Who may read the status pages: callers on the node's own machine (loopback, src/core/addresses.ts) as they are,
 * anyone else signed in as an enterprise-interface user. Signing in is the users feature's
 * Bearer login (src/features/users/users.service.ts) with the token kept in an `HttpOnly`,
 * `SameSite=Strict` cookie scoped to /status: a script on the page cannot read it and
 * another site cannot send it. Behind a reverse proxy on the same machine, the proxy must
 * send X-Forwarded-For (express trusts it from loopback), or every caller looks local.
 */
import type { Request, Response } from 'express';

export const SESSION_COOKIE = 'loyaltyd_status';

/** The session token the request's cookie carries, if any. */
export function sessionToken(request: Request): string | undefined {
  for (const part of (request.get('cookie') ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

export function setSessionCookie(request: Request, response: Response, token: string, maxAgeSeconds: number): void {
  const secure = request.secure ? '; Secure' : '';
  response.append(
    'Set-Cookie',
    `${SESSION_COOKIE}=${encodeURIComponent(token)}; Path=/status; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`,
  );
}

export function clearSessionCookie(response: Response): void {
  response.append('Set-Cookie', `${SESSION_COOKIE}=; Path=/status; Max-Age=0; HttpOnly; SameSite=Strict`);
}
