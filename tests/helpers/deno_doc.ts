/**
 * What `deno doc --json` says of an entry point: the symbols it declares or
 * exports, for the tests that hold the public surface and the ports to a
 * size.
 */

import assert from "node:assert/strict";

/** A member of an interface or a class, as `deno doc` lists it. */
interface DocMember {
  name: string;
}

/** A symbol of the module, with its declarations. */
export interface DocSymbol {
  name: string;
  declarations: { def?: { methods?: DocMember[]; properties?: DocMember[] } }[];
}

/** The symbols `deno doc` lists for `entry` (a path from the project root). */
export async function docSymbols(entry: string): Promise<DocSymbol[]> {
  const { stdout, success } = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", entry],
    cwd: new URL("../../", import.meta.url),
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.ok(success, `deno doc ${entry}`);
  const doc = JSON.parse(new TextDecoder().decode(stdout));
  const [module] = Object.values(doc.nodes) as { symbols: DocSymbol[] }[];
  return module.symbols;
}
