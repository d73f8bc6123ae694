/**
 * The webhook signature, Stripe's scheme: `X-Queue-Board-Signature:
 * t=<unix seconds>,v1=<hex of HMAC-SHA256(secret, t + "." + body)>`. The
 * timestamp inside the signed text lets a receiver refuse a replayed notice.
 *
 * @module
 */

/** The header the signature travels in. */
export const SIGNATURE_HEADER = "X-Queue-Board-Signature";

/**
 * The signature header's value for `body` sent at `unixSeconds`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { signatureOf } from "./signature.ts";
 * const header = await signatureOf("at-least-32-characters-long-secret", "{}", 1764158400);
 * assert.match(header, /^t=1764158400,v1=[0-9a-f]{64}$/);
 * ```
 */
export async function signatureOf(
  secret: string,
  body: string,
  unixSeconds: number,
): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${unixSeconds}.${body}`));
  const hex = Array.from(new Uint8Array(mac), (byte) => byte.toString(16).padStart(2, "0"));
  return `t=${unixSeconds},v1=${hex.join("")}`;
}
