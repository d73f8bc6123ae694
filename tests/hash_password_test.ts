/**
 * `deno task hash-password`: typed on a terminal (a pseudo-terminal from
 * util-linux's `script`), the password is not shown; piped, it is read as is.
 */

import assert from "node:assert/strict";
import { verifyPassword } from "../src/auth/password_hash.ts";

const SCRIPT = new URL("../scripts/hash_password.ts", import.meta.url).pathname;
const HASH = /pbkdf2-sha256\$600000\$\S+/;

/** Reads `reader` until the text read so far matches `until`; everything read. */
async function readUntil(
  reader: ReadableStreamDefaultReader<string>,
  until: RegExp,
  sofar = "",
): Promise<string> {
  let text = sofar;
  while (!until.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the output ended before ${until}: ${JSON.stringify(text)}`);
    text += value;
  }
  return text;
}

Deno.test("on a terminal, hash-password prompts and does not echo the password", async () => {
  const password = "correct horse battery";
  const child = new Deno.Command("script", {
    // -q: no banner; -e: the command's exit code; -f: flush every write.
    args: ["-qef", "-c", `'${Deno.execPath()}' run --no-check '${SCRIPT}'`, "/dev/null"],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
    env: { NO_COLOR: "1" },
  }).spawn();
  const output = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const writer = child.stdin.getWriter();
  try {
    // Typed after the prompt: a terminal echoes what arrives before raw mode is on.
    const prompted = await readUntil(output, /Password/);
    await writer.write(new TextEncoder().encode(`${password}\r`));
    const text = await readUntil(output, HASH, prompted);
    assert.ok(!text.includes(password), `the password was shown: ${JSON.stringify(text)}`);
    assert.ok(await verifyPassword(password, HASH.exec(text)![0]), "the hash is the password's");
  } finally {
    await writer.close();
    await output.cancel();
    await child.status;
  }
});

Deno.test("piped, hash-password reads the password without a prompt", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-check", SCRIPT],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode("lovelace\n"));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  const printed = new TextDecoder().decode(stdout).trim();
  assert.match(printed, /^pbkdf2-sha256\$600000\$\S+$/);
  assert.ok(await verifyPassword("lovelace", printed));
});
