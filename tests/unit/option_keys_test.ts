/**
 * The option names `resolveOptions` accepts are derived from the option
 * types: a field added to `BoardOptions` (or to session login, its
 * throttling or the formatters) without its key in the list `deno check`
 * fails on, instead of a board refusing the new option as unknown.
 */

import assert from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";

const ROOT = fromFileUrl(new URL("../../", import.meta.url));
const OPTIONS = new URL("../../src/options.ts", import.meta.url).href;

/** A module that adds `fields` to the option interfaces (module augmentation). */
function augmenting(fields: Record<string, string>): string {
  const interfaces = Object.entries(fields).map(([name, field]) =>
    `  interface ${name} {\n    ${field}?: true;\n  }`
  );
  return `import "${OPTIONS}";\ndeclare module "${OPTIONS}" {\n${interfaces.join("\n")}\n}\n`;
}

Deno.test("an option field without its key in the known options fails deno check", async () => {
  const added = {
    BoardOptions: "sparkleMode",
    SessionAuthOptions: "sparkleCookie",
    LoginThrottleOptions: "sparkleAttempts",
    Formatters: "sparkleFormat",
  };
  const dir = await Deno.makeTempDir();
  try {
    const module = `${dir}/augmented.ts`;
    await Deno.writeTextFile(module, augmenting(added));
    const { success, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--quiet", "--config", `${ROOT}deno.json`, module],
      cwd: ROOT,
    }).output();
    const errors = new TextDecoder().decode(stderr);
    assert.equal(success, false, "deno check passed with fields missing from the known options");
    for (const field of Object.values(added)) {
      assert.match(errors, new RegExp(`'${field}' is missing`), `${field} not refused`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
