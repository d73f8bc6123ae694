/**
 * `src/api/` holds routes and their schemas, nothing else; a helper a route
 * uses lives in a room of its own (`src/http/`, `src/history/`, ...). What
 * a module exports says what it is, so the rule is read from its exports
 * (`deno fmt` starts every `export` at the start of a line):
 *
 * - a route module (a file of `src/api/`) exports route builders only:
 *   functions named `…Routes`, each imported by `mod.ts`, which mounts it;
 * - the route kit is three modules pinned by name: `mod.ts` (`createApi`),
 *   `openapi.ts` (how a route is declared) and `deps.ts` (what a route is
 *   given);
 * - a schema module (a file of `src/api/schema/`) exports zod schemas (each
 *   exported value a `z.ZodType`, or a shape: an object of them), the
 *   bounds they check (a number named in capitals, `MAX_LIMIT`), the types
 *   read from them, and schema builders, whose names say which part of a
 *   route they build (`…Param`, `…Query`, `…Field`, `…Body`, `…Answer`, `…Of`);
 * - no other folder.
 *
 * Who imports the routes is `layering_test.ts`'s: only the composition root.
 */

import assert from "node:assert/strict";
import { z } from "@hono/zod-openapi";

const API = new URL("../../src/api/", import.meta.url);

/** What an `export` line declares. */
interface Declared {
  kind: string;
  name: string;
}

const DECLARATION =
  /^export (?:declare )?(?:async )?(function\*?|const|let|class|type|interface|enum) (\w+)/;

/** The exports `text` declares; an export line of another form (`export {`, `export *`) fails. */
function declaredExports(path: string, text: string): Declared[] {
  return text.split("\n").filter((line) => line.startsWith("export ")).map((line) => {
    const match = DECLARATION.exec(line);
    assert.ok(match, `${path}: an export the rule cannot read: ${line}`);
    return { kind: match[1], name: match[2] };
  });
}

/** The entries of a folder of `src/api/`, sorted. */
function entries(folder: URL): Deno.DirEntry[] {
  return [...Deno.readDirSync(folder)].sort((a, b) => a.name < b.name ? -1 : 1);
}

/** The route kit: each module's exports, exactly. */
const KIT: Record<string, string[]> = {
  "mod.ts": ["createApi"],
  "openapi.ts": ["ApiRouteConfig", "apiRoute", "apiRouter"],
  "deps.ts": ["ApiDeps"],
};

const mounting = Deno.readTextFileSync(new URL("mod.ts", API));

Deno.test("src/api/ holds route modules, the route kit and schema/ only", () => {
  const folders = entries(API).filter((entry) => !entry.isFile).map((entry) => entry.name);
  assert.deepEqual(folders, ["schema"]);
  const stray: string[] = [];
  for (const { name: file } of entries(API).filter((entry) => entry.isFile)) {
    const exports = declaredExports(file, Deno.readTextFileSync(new URL(file, API)));
    if (file in KIT) {
      const extra = exports.filter(({ name }) => !KIT[file].includes(name));
      stray.push(...extra.map(({ kind, name }) => `${file}: ${kind} ${name}`));
      continue;
    }
    assert.ok(exports.length > 0, `${file} declares routes`);
    for (const { kind, name } of exports) {
      const mounted = new RegExp(`import \\{ ${name} \\} from "\\./${file}"`).test(mounting);
      if (kind !== "function" || !name.endsWith("Routes") || !mounted) {
        stray.push(`${file}: ${kind} ${name}`);
      }
    }
  }
  assert.deepEqual(stray, [], "a route module exports the routes mod.ts mounts; the kit its own");
});

Deno.test("src/api/schema/ exports zod schemas, their types and schema builders only", async () => {
  const schemas = new URL("schema/", API);
  const builder = /(Param|Query|Field|Body|Answer|Of)$/;
  const stray: string[] = [];
  for (const { name: file, isFile } of entries(schemas)) {
    assert.ok(isFile, `schema/${file}: no folder in schema/`);
    const url = new URL(file, schemas);
    const values: Record<string, unknown> = await import(url.href);
    for (const { kind, name } of declaredExports(file, Deno.readTextFileSync(url))) {
      const value = values[name];
      const schemas = value instanceof z.ZodType || (typeof value === "object" && value !== null &&
        Object.values(value).every((field) => field instanceof z.ZodType));
      const bound = typeof value === "number" && /^[A-Z][A-Z0-9_]*$/.test(name);
      const fits = kind === "type" || kind === "interface" ||
        (kind === "const" && (schemas || bound)) ||
        (kind === "function" && builder.test(name));
      if (!fits) stray.push(`schema/${file}: ${kind} ${name}`);
    }
  }
  assert.deepEqual(stray, [], "a schema module holds schemas and their builders, nothing else");
});
