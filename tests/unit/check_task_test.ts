/**
 * `deno task check` holds every published module to `deno doc --lint`:
 * an export added to `deno.json` without joining the lint fails here.
 */

import assert from "node:assert/strict";

const config = JSON.parse(
  await Deno.readTextFile(new URL("../../deno.json", import.meta.url)),
) as { exports: Record<string, string>; tasks: Record<string, string> };

/** What task `name` runs, the tasks it runs (`deno task check:package`) spelled out. */
function expanded(name: string): string {
  return config.tasks[name].replace(/deno task ([\w:]+)/g, (_, task) => expanded(task));
}

Deno.test("the check task doc-lints every export of the package", () => {
  const lint = /deno doc --lint ([^&]+)/.exec(expanded("check"));
  assert.ok(lint, "the check task runs no deno doc --lint");
  const linted = lint[1].trim().split(/\s+/).map((path) => path.replace(/^\.\//, ""));
  for (const [name, path] of Object.entries(config.exports)) {
    assert.ok(
      linted.includes(path.replace(/^\.\//, "")),
      `export "${name}" (${path}) is not linted`,
    );
  }
});
