/**
 * Who a refusal is counted against, for the per-client limit of the audit
 * trail: the user when one is known; else, behind a trusted proxy, the
 * address it forwards; else every anonymous request together.
 *
 * @module
 */

import type { Context } from "hono";
import { ANONYMOUS, type UserEnv } from "../auth/user.ts";

/** The client key of a request (at most 200 characters). */
export function auditClient(c: Context<UserEnv>, trustProxy: boolean): string {
  const user = c.get("user");
  if (user !== undefined && user !== ANONYMOUS) return `user:${user}`;
  const forwarded = trustProxy ? c.req.header("x-forwarded-for")?.split(",")[0].trim() : "";
  return forwarded ? `address:${forwarded.slice(0, 200)}` : ANONYMOUS;
}
