/**
 * The login flow: `GET /login`, `POST /auth/login` (throttled, see
 * `login_throttle.ts`), `POST /auth/logout` (the cookie's session is signed
 * out in the store, so a copy of it is refused too).
 *
 * @module
 */

import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AuditRecord } from "../contract/audit.ts";
import { LOGIN_ACTION } from "../audit/actions.ts";
import type { AuditTrail } from "../audit/trail.ts";
import type { BoardUser, SessionAuthOptions } from "../options.ts";
import { clientAddress } from "./client_address.ts";
import type { LoginThrottle } from "./login_throttle.ts";
import { renderLoginPage } from "./login_page.ts";
import { safeRedirect } from "./redirect.ts";
import { clearSession, readSession, type SessionConfig, writeSession } from "./session.ts";
import { identityOf, type SessionRevoker } from "./revocations.ts";

/** A sign-in that did not happen: wrong credentials, or refused by the throttle. */
export interface FailedLogin {
  /** The username tried (never the password). */
  username: string;
  /** The client's address, when known. */
  address: string | null;
  reason: "invalid" | "throttled";
}

/** What the login routes need. */
export interface LoginConfig {
  session: SessionConfig;
  authenticate: SessionAuthOptions["authenticate"];
  basePath: string;
  title: string;
  logo: string | null;
  /** The board's login throttle; null when turned off. */
  throttle: LoginThrottle | null;
  /** Told of every failed sign-in (metrics, the audit trail). */
  onFailedLogin: (failure: FailedLogin) => void;
  /** Where a signed-out session is kept until its cookie expires. */
  revoker: SessionRevoker;
}

/** The one message a failed sign-in gets, whatever failed. */
export const LOGIN_FAILED = "Invalid username or password";
const LOGIN_INCOMPLETE = "Enter a username and a password";
const TOO_MANY_SIGN_INS = "Too many failed sign-ins";
const LOGIN_THROTTLED = `${TOO_MANY_SIGN_INS}: try again in`;
const LOGIN_BODY_LIMIT = 16 * 1024;

interface Credentials {
  username: unknown;
  password: unknown;
  redirect: unknown;
}

/**
 * Writes a failed sign-in to the audit trail's refusals: who was tried, from
 * where, and whether the password was checked (401) or throttling refused
 * the attempt first (429); never the password. The trail limits how many it
 * writes per address, so a flood of guesses costs a bounded write rate.
 */
export function recordFailedLogin(trail: AuditTrail, failure: FailedLogin, at: number): void {
  const username = failure.username.slice(0, 200);
  const throttled = failure.reason === "throttled";
  const from = failure.address === null ? "" : ` (from ${failure.address})`;
  const record: AuditRecord = {
    at,
    user: username,
    action: LOGIN_ACTION,
    target: username,
    task: null,
    count: null,
    outcome: "error",
    status: throttled ? 429 : 401,
    code: throttled ? "TOO_MANY_ATTEMPTS" : "UNAUTHORIZED",
    detail: `${throttled ? TOO_MANY_SIGN_INS : LOGIN_FAILED}${from}`,
  };
  const client = failure.address === null ? undefined : `address:${failure.address}`;
  trail.append(record, client).catch((error) =>
    console.error("queue-board: cannot record the failed sign-in", record, error)
  );
}

function prefixed(basePath: string, path: string): string {
  return basePath === "/" ? path : `${basePath}${path}`;
}

async function readCredentials(c: Context, json: boolean): Promise<Credentials | null> {
  try {
    const body = json ? await c.req.json() : await c.req.parseBody();
    if (body === null || typeof body !== "object" || Array.isArray(body)) return null;
    return body as Credentials;
  } catch {
    return null;
  }
}

function asUser(user: unknown): BoardUser | null {
  if (!user) return null;
  return typeof user === "object" ? user as BoardUser : { id: String(user) };
}

/** Builds the login routes. */
export function loginRoutes(config: LoginConfig): Hono {
  const action = prefixed(config.basePath, "/auth/login");

  function page(
    c: Context,
    redirect: unknown,
    error: string | null,
    status: 200 | 400 | 401 | 429,
  ) {
    c.header("Cache-Control", "no-store");
    return c.html(
      renderLoginPage({
        title: config.title,
        logo: config.logo,
        action,
        redirect: safeRedirect(redirect, config.basePath),
        error,
        nonce: c.get("secureHeadersNonce") ?? "",
      }),
      status,
    );
  }

  return new Hono()
    .get("/login", (c) => page(c, c.req.query("redirect"), null, 200))
    .post(
      "/auth/login",
      bodyLimit({
        maxSize: LOGIN_BODY_LIMIT,
        onError: (c) => c.json({ error: "Request body too large", code: "INVALID_PARAM" }, 413),
      }),
      async (c) => {
        const json = (c.req.header("content-type") ?? "").includes("application/json");
        const body = await readCredentials(c, json);
        const redirect = body?.redirect ?? c.req.query("redirect");
        if (typeof body?.username !== "string" || typeof body?.password !== "string") {
          return json
            ? c.json({
              error: `${LOGIN_INCOMPLETE} (username and password strings)`,
              code: "INVALID_PARAM",
            }, 400)
            : page(c, redirect, LOGIN_INCOMPLETE, 400);
        }
        const attempt = {
          username: body.username,
          address: clientAddress(c, config.session.trustProxy),
        };
        const wait = config.throttle?.reserve(attempt) ?? 0;
        if (wait > 0) {
          config.onFailedLogin({ ...attempt, reason: "throttled" });
          const seconds = Math.ceil(wait / 1000);
          const message = `${LOGIN_THROTTLED} ${seconds} s`;
          c.header("Retry-After", String(seconds));
          return json
            ? c.json({ error: message, code: "TOO_MANY_ATTEMPTS" }, 429)
            : page(c, redirect, message, 429);
        }
        let user: BoardUser | null = null;
        try {
          user = asUser(
            await config.authenticate(
              { username: body.username, password: body.password },
              c.req.raw,
            ),
          );
        } catch {
          user = null;
        }
        if (!user) {
          // Already counted by reserve(), before authenticate ran.
          config.onFailedLogin({ ...attempt, reason: "invalid" });
          return json
            ? c.json({ error: LOGIN_FAILED, code: "UNAUTHORIZED" }, 401)
            : page(c, redirect, LOGIN_FAILED, 401);
        }
        config.throttle?.succeed(attempt);
        await writeSession(c, config.session, user);
        return c.redirect(safeRedirect(redirect, config.basePath), 303);
      },
    )
    .post("/auth/logout", async (c) => {
      const session = await readSession(c, config.session);
      // Clearing the cookie does not end a copy of it. When the store cannot
      // take this, the answer is 503 and the cookie stays, to sign out again.
      if (session) await config.revoker.signOut({ ...identityOf(session), exp: session.exp });
      clearSession(c, config.session);
      return c.redirect(prefixed(config.basePath, "/login"), 303);
    });
}
