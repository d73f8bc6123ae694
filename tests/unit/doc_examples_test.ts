import assert from "node:assert/strict";
import { exampleModule, examplesIn, exportedValues } from "../../scripts/doc_examples.ts";

const FILE = new URL("file:///p/src/auth/hosts.ts");
const FENCE = "```";

/** A documented file: its JSDoc comments hold `blocks`, each a fence's info string and its lines. */
function documented(...blocks: [string, string[]][]): string {
  const comments = blocks.map(([info, lines]) =>
    ["/**", " * An example.", ` * ${FENCE}${info}`, ...lines.map((line) => ` * ${line}`)]
      .concat([` * ${FENCE}`, " */", "export function hostAllowed(): boolean { return true; }"])
      .join("\n")
  );
  return comments.join("\n");
}

Deno.test("examplesIn() finds the blocks deno test --doc runs: a script language or none, not ignored", () => {
  const text = documented(
    ["ts", ["hostAllowed();"]],
    ["ts ignore", ["listen();"]],
    ["sh", ["deno task test"]],
    ["", ["hostAllowed(1);"]],
    ["typescript", ["hostAllowed(2);"]],
    ["json", ["{}"]],
  ) + `\n// ${FENCE}ts\n// notJsDoc();\n// ${FENCE}`;
  const examples = examplesIn(FILE, "src/auth/hosts.ts", text);
  assert.deepEqual(examples.map(({ code }) => code), [
    "hostAllowed();",
    "hostAllowed(1);",
    "hostAllowed(2);",
  ]);
  // Named for the file and the lines of the block's fences.
  assert.equal(examples[0].name, "src/auth/hosts.ts#3-5");
  assert.equal(text.split("\n")[2], ` * ${FENCE}ts`);
  assert.equal(examples[0].file, FILE);
});

Deno.test("exampleModule() hoists the imports, resolving relative ones against the documented file", () => {
  const code = [
    'import assert from "node:assert/strict";',
    "import {",
    "  allowedHosts,",
    "  type HostOptions,",
    '} from "./allowed_hosts.ts";',
    'import { Hono } from "hono";',
    "",
    "const app = new Hono().use(allowedHosts({ hosts: [] }));",
    "assert.ok(app);",
  ].join("\n");
  const module = exampleModule({ name: "src/auth/hosts.ts#3-13", file: FILE, code }, "");
  assert.equal(
    module,
    [
      'import assert from "node:assert/strict";',
      "import {",
      "  allowedHosts,",
      "  type HostOptions,",
      '} from "file:///p/src/auth/allowed_hosts.ts";',
      'import { Hono } from "hono";',
      "",
      'Deno.test("src/auth/hosts.ts#3-13", async () => {',
      "",
      "const app = new Hono().use(allowedHosts({ hosts: [] }));",
      "assert.ok(app);",
      "});",
      "",
    ].join("\n"),
  );
});

Deno.test("exampleModule() imports the documented file's values the example names and does not import", () => {
  const fileText = [
    "export function hostAllowed(): boolean { return true; }",
    "export const DEFAULT_HOSTS = [];",
    "export async function resolveHost(): Promise<string> { return ''; }",
    "export type HostList = string[];",
    "export { splitHost as split, type Parsed };",
  ].join("\n");
  const code = [
    'import { resolveHost } from "./hosts.ts";',
    "const hosts: HostList = DEFAULT_HOSTS;",
    "hostAllowed(await resolveHost(), hosts);",
    "split(config.hostAllowed);",
  ].join("\n");
  const module = exampleModule({ name: "x", file: FILE, code }, fileText);
  assert.match(
    module,
    /^import \{ hostAllowed, DEFAULT_HOSTS, split \} from "file:\/\/\/p\/src\/auth\/hosts.ts";$/m,
  );
});

Deno.test("exportedValues() reads declarations and export lists, not types", () => {
  const text = [
    "export function a() {}",
    "export async function b() {}",
    "export const c = 1;",
    "export class D {}",
    "export interface E {}",
    "export type F = string;",
    "export { g, h as i, type J };",
    "const notExported = 2;",
  ].join("\n");
  assert.deepEqual(exportedValues(text), ["a", "b", "c", "D", "g", "i"]);
});
