/**
 * `deno task hash-password`: prints the hash of a password for the CLI's
 * users file (`--users`): PBKDF2-HMAC-SHA-256, 600,000 iterations, a fresh
 * salt. The password is read from standard input (a prompt on a terminal),
 * so it stays out of the shell's history.
 *
 * @module
 */

import { hashPassword, PASSWORD_ITERATIONS } from "../src/auth/password_hash.ts";

const password = Deno.stdin.isTerminal()
  ? prompt("Password:") ?? ""
  : (await new Response(Deno.stdin.readable).text()).replace(/\r?\n$/, "");
if (password === "") {
  console.error("hash-password: no password given");
  Deno.exit(2);
}
console.log(await hashPassword(password, PASSWORD_ITERATIONS));
