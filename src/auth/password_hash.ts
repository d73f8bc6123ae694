/**
 * Password hashes for the CLI's users file: PBKDF2-HMAC-SHA-256 from Web
 * Crypto, written `pbkdf2-sha256$<iterations>$<salt>$<hash>` (salt and hash
 * in base64: 16 and 32 bytes). New hashes use {@link PASSWORD_ITERATIONS}
 * (600,000, OWASP's figure for PBKDF2-HMAC-SHA-256); a hash stating fewer
 * than {@link MIN_ITERATIONS} is refused. Hashes are compared in constant
 * time.
 *
 * @module
 */

import { timingSafeEqual } from "hono/utils/buffer";

/** The iterations of a new hash (`deno task hash-password`). */
export const PASSWORD_ITERATIONS = 600_000;
/** The fewest iterations a stored hash may state. */
export const MIN_ITERATIONS = 100_000;
/** The most iterations a stored hash may state: a login costs at most this. */
const MAX_ITERATIONS = 10_000_000;

const SCHEME = "pbkdf2-sha256";

function base64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(password),
    "PBKDF2",
    false,
    ["deriveBits"],
  );
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: salt as BufferSource, iterations },
    key,
    256,
  );
  return base64(new Uint8Array(bits));
}

/**
 * A hash of `password` with a fresh 16-byte salt.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hashPassword, MIN_ITERATIONS, verifyPassword } from "./password_hash.ts";
 * const hash = await hashPassword("lovelace", MIN_ITERATIONS);
 * assert.ok(await verifyPassword("lovelace", hash));
 * ```
 */
export async function hashPassword(
  password: string,
  iterations: number = PASSWORD_ITERATIONS,
): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return `${SCHEME}$${iterations}$${base64(salt)}$${await derive(password, salt, iterations)}`;
}

/** Whether `stored` is a hash {@link verifyPassword} takes. */
export function isPasswordHash(stored: string): boolean {
  return parse(stored) !== null;
}

function parse(stored: string): { iterations: number; salt: Uint8Array; hash: string } | null {
  const parts = stored.split("$");
  if (parts.length !== 4 || parts[0] !== SCHEME || !/^\d{1,8}$/.test(parts[1])) return null;
  const iterations = Number(parts[1]);
  if (iterations < MIN_ITERATIONS || iterations > MAX_ITERATIONS) return null;
  if (!/^[A-Za-z0-9+/]{22}==$/.test(parts[2]) || !/^[A-Za-z0-9+/]{43}=$/.test(parts[3])) {
    return null;
  }
  const salt = Uint8Array.from(atob(parts[2]), (char) => char.charCodeAt(0));
  return { iterations, salt, hash: parts[3] };
}

/** Whether `password` is the one `stored` was made from (false for a malformed or weak hash). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (parsed === null) return false;
  const derived = await derive(password, parsed.salt, parsed.iterations);
  return await timingSafeEqual(derived, parsed.hash);
}
