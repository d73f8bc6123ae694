/**
 * `deno task hash-password`: prints the hash of a password for the CLI's
 * users file (`--users`): PBKDF2-HMAC-SHA-256, 600,000 iterations, a fresh
 * salt. The password is read from standard input, so it stays out of the
 * shell's history: piped as is, or typed on a terminal after a prompt, not
 * shown (the terminal is put in raw mode, so it echoes nothing).
 *
 * @module
 */

import { hashPassword, PASSWORD_ITERATIONS } from "../src/auth/password_hash.ts";

const ENTER = new Set(["\r", "\n"]);
const CTRL_C = "\u0003";
const CTRL_D = "\u0004";
const ERASE = new Set(["\u007f", "\b"]);

/**
 * Reads one line typed on the terminal without echoing it; null on Ctrl-C
 * (raw mode turns the terminal's own interrupt off too). The prompt goes to
 * standard error, so `> file` keeps only the hash.
 */
async function readHidden(question: string): Promise<string | null> {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const typed: string[] = [];
  Deno.stdin.setRaw(true);
  try {
    await Deno.stderr.write(encoder.encode(question));
    const buffer = new Uint8Array(256);
    for (let n = await Deno.stdin.read(buffer); n !== null; n = await Deno.stdin.read(buffer)) {
      for (const char of decoder.decode(buffer.subarray(0, n), { stream: true })) {
        if (ENTER.has(char) || char === CTRL_D) return typed.join("");
        if (char === CTRL_C) return null;
        if (ERASE.has(char)) typed.pop();
        else typed.push(char);
      }
    }
    return typed.join("");
  } finally {
    Deno.stdin.setRaw(false);
    await Deno.stderr.write(encoder.encode("\n"));
  }
}

const password = Deno.stdin.isTerminal()
  ? await readHidden("Password (not shown): ")
  : (await new Response(Deno.stdin.readable).text()).replace(/\r?\n$/, "");
if (password === null) Deno.exit(130); // as an interrupt would, the terminal restored
if (password === "") {
  console.error("hash-password: no password given");
  Deno.exit(2);
}
console.log(await hashPassword(password, PASSWORD_ITERATIONS));
