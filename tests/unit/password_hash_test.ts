/** PBKDF2 password hashes for the CLI's users file. */

import assert from "node:assert/strict";
import {
  hashPassword,
  MIN_ITERATIONS,
  PASSWORD_ITERATIONS,
  verifyPassword,
} from "../../src/auth/password_hash.ts";

Deno.test("hashPassword() states its scheme, iteration count and salt; verifyPassword() checks it", async () => {
  const hash = await hashPassword("lovelace", MIN_ITERATIONS);
  assert.match(
    hash,
    new RegExp(`^pbkdf2-sha256\\$${MIN_ITERATIONS}\\$[\\w+/=]{24}\\$[\\w+/=]{44}$`),
  );
  assert.equal(await verifyPassword("lovelace", hash), true);
  assert.equal(await verifyPassword("Lovelace", hash), false);
  assert.notEqual(await hashPassword("lovelace", MIN_ITERATIONS), hash, "a fresh salt each time");
  assert.equal(PASSWORD_ITERATIONS, 600_000);
});

Deno.test("verifyPassword() refuses a malformed or weak hash", async () => {
  assert.equal(await verifyPassword("x", "plain"), false);
  assert.equal(
    await verifyPassword("x", "pbkdf2-sha256$1000$AAAA$AAAA"),
    false,
    "too few iterations",
  );
});
