/**
 * Who a refusal is counted against, for the per-client limit of the audit
 * trail: the user when one is known; else the client's address (the
 * socket's, or the one a trusted proxy appended: see `clientAddress`; an
 * IPv6 address by its /64, which one host holds whole: `addressBlock`); else
 * every anonymous request together.
 *
 * @module
 */

import type { Context } from "hono";
import { addressBlock, clientAddress } from "../auth/client_address.ts";
import { ANONYMOUS, type UserEnv } from "../auth/user.ts";

/** The client key of a request. */
export function auditClient(c: Context<UserEnv>, trustProxy: boolean): string {
  const user = c.get("user");
  if (user !== undefined && user !== ANONYMOUS) return `user:${user}`;
  const address = clientAddress(c, trustProxy);
  return address === null ? ANONYMOUS : `address:${addressBlock(address)}`;
}
