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
  /** Absolute lifetime in ms from the login, renewals included, or null for none. */
  maxAgeMs: number | null;
  /** Cookie path: the board's base path. */
  path: string;
  /** Honour `X-Forwarded-Proto` when deciding whether the request came over HTTPS. */
  trustProxy: boolean;
  /** The clock (ms). */
  now: () => number;
}

/** What the cookie carries. */
export interface Session {
  user: BoardUser;
  /** Expiry (ms), or null when sessions do not expire. */
  exp: number | null;
  /** When the user signed in (ms): kept through renewals, checked against revocations. */
  iat: number;
  /** Random per login, so that no two sessions are the same cookie. */
  nonce: string;
}

/**
 * What the session guard hands the routes after it: `sessionExp`, when the
 * request's session expires (ms; null when it does not), `sessionUser`, the
 * user signed into it, and `sessionRevoked`, whether it has been signed out
 * everywhere since (for a long answer: the event stream). Absent without
 * session login.
 */
export interface SessionEnv {
  Variables: {
    sessionExp?: number | null;
    sessionUser?: BoardUser;
    sessionRevoked?: () => Promise<boolean>;
  };
}

/** Whether the browser reached us over HTTPS (directly, or through a trusted proxy). */
export function isHttps(c: Context, trustProxy: boolean): boolean {
  if (new URL(c.req.url).protocol === "https:") return true;
  if (!trustProxy) return false;
  const forwarded = c.req.header("x-forwarded-proto")?.split(",")[0].trim().toLowerCase();
  return forwarded === "https";
}

/** When a session signed in at `iat` expires if (re)issued now: the sooner of both lifetimes. */
function expiryOf(iat: number, config: SessionConfig): number | null {
  const rolling = config.ttlMs === null ? null : config.now() + config.ttlMs;
  const absolute = config.maxAgeMs === null ? null : iat + config.maxAgeMs;
  if (rolling === null) return absolute;
  return absolute === null ? rolling : Math.min(rolling, absolute);
}

/**
 * Signs the session into the response's cookie: a new one for `user` (a
 * fresh nonce, issued now), or `renewed` with its expiry moved on. Returns
 * its expiry (ms), null when none.
 */
export async function writeSession(
  c: Context,
  config: SessionConfig,
  user: BoardUser,
  renewed?: Session,
): Promise<number | null> {
  const iat = renewed?.iat ?? config.now();
  const nonce = renewed?.nonce ?? crypto.randomUUID();
  const exp = expiryOf(iat, config);
  const session: Session = { user, exp, iat, nonce };
  await setSignedCookie(c, config.cookieName, JSON.stringify(session), config.secret, {
    path: config.path,
    httpOnly: true,
    sameSite: "Lax",
    secure: isHttps(c, config.trustProxy),
    ...(exp === null ? {} : { maxAge: Math.max(1, Math.ceil((exp - config.now()) / 1000)) }),
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
 * signed with another key, malformed (a cookie of a board version before
 * nonces included), expired, or older than the absolute lifetime.
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
  const { user, exp, iat, nonce } = session as Partial<Session>;
  if (!user || typeof user !== "object") return null;
  if (typeof iat !== "number" || typeof nonce !== "string") return null;
  const now = config.now();
  if (exp !== null && (typeof exp !== "number" || exp <= now)) return null;
  if (exp === null && (config.ttlMs !== null || config.maxAgeMs !== null)) return null;
  if (config.maxAgeMs !== null && iat + config.maxAgeMs <= now) return null;
  return { user, exp, iat, nonce };
}

/**
 * Whether a rolling session has used a tenth of its lifetime and should be
 * re-issued: never once re-issuing would not move its expiry (the absolute
 * lifetime caps it).
 */
export function needsRenewal(session: Session, config: SessionConfig): boolean {
  if (config.ttlMs === null || session.exp === null) return false;
  const renewed = expiryOf(session.iat, config)!;
  return session.exp - config.now() < config.ttlMs * 0.9 && renewed > session.exp;
}
