/**
 * The stateless session: the user and its expiry in a cookie signed with
 * HMAC-SHA-256 (Web Crypto, through `hono/cookie`). Nothing is kept on the
 * server, so any replica behind a load balancer accepts it.
 *
 * @module
 */

import type { Context } from "hono";
import { deleteCookie, getSignedCookie, setSignedCookie } from "hono/cookie";
import type { BoardUser } from "../options.ts";

/** How sessions are signed and scoped. */
export interface SessionConfig {
  cookieName: string;
  secret: string;
  /** Rolling lifetime in ms, or null for a browser-session cookie with no server-side expiry. */
  ttlMs: number | null;
  /** Cookie path: the board's base path. */
  path: string;
  /** Honour `X-Forwarded-Proto` when deciding whether the request came over HTTPS. */
  trustProxy: boolean;
}

/** What the cookie carries. */
export interface Session {
  user: BoardUser;
  /** Expiry (ms), or null when sessions do not expire. */
  exp: number | null;
}

/**
 * What the session guard hands the routes after it: `sessionExp`, when the
 * request's session expires (ms; null when it does not). Absent without
 * session login.
 */
export interface SessionEnv {
  Variables: { sessionExp?: number | null };
}

/** Whether the browser reached us over HTTPS (directly, or through a trusted proxy). */
export function isHttps(c: Context, trustProxy: boolean): boolean {
  if (new URL(c.req.url).protocol === "https:") return true;
  if (!trustProxy) return false;
  const forwarded = c.req.header("x-forwarded-proto")?.split(",")[0].trim().toLowerCase();
  return forwarded === "https";
}

/** Signs the session into the response's cookie; returns its expiry (ms), null when none. */
export async function writeSession(
  c: Context,
  config: SessionConfig,
  user: BoardUser,
): Promise<number | null> {
  const exp = config.ttlMs === null ? null : Date.now() + config.ttlMs;
  await setSignedCookie(c, config.cookieName, JSON.stringify({ user, exp }), config.secret, {
    path: config.path,
    httpOnly: true,
    sameSite: "Lax",
    secure: isHttps(c, config.trustProxy),
    ...(config.ttlMs === null ? {} : { maxAge: Math.ceil(config.ttlMs / 1000) }),
  });
  return exp;
}

/** Clears the session cookie. */
export function clearSession(c: Context, config: SessionConfig): void {
  deleteCookie(c, config.cookieName, {
    path: config.path,
    httpOnly: true,
    sameSite: "Lax",
    secure: isHttps(c, config.trustProxy),
  });
}

/**
 * The request's session, or null when the cookie is missing, tampered with,
 * signed with another key, malformed or expired.
 */
export async function readSession(c: Context, config: SessionConfig): Promise<Session | null> {
  let signed: string | false | undefined;
  try {
    signed = await getSignedCookie(c, config.secret, config.cookieName);
  } catch {
    return null;
  }
  if (typeof signed !== "string") return null;
  let session: unknown;
  try {
    session = JSON.parse(signed);
  } catch {
    return null;
  }
  if (session === null || typeof session !== "object") return null;
  const { user, exp } = session as Partial<Session>;
  if (!user || typeof user !== "object") return null;
  if (exp !== null && (typeof exp !== "number" || exp <= Date.now())) return null;
  if (exp === null && config.ttlMs !== null) return null;
  return { user, exp };
}

/** Whether a rolling session has used a tenth of its lifetime and should be re-issued. */
export function needsRenewal(session: Session, config: SessionConfig): boolean {
  if (config.ttlMs === null || session.exp === null) return false;
  return session.exp - Date.now() < config.ttlMs * 0.9;
}
