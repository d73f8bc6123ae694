/**
 * The package's JSDoc examples as test modules that can share an isolate.
 * `deno test --doc` runs each example in an isolate of its own: 129 isolates
 * for 127 examples cost 28 s of CPU (19 s user, 9 s sys) where two isolates
 * ran them all in 2.9 s. Each example becomes a module as `deno test --doc`
 * makes it (its imports hoisted, the documented file's exports it uses
 * imported, the rest the body of one `Deno.test`), and `scripts/test.ts`
 * imports a batch of them from one test module. `deno check --doc`
 * ({@link import("./test.ts").CHECK_ARGS}) still type-checks the examples as
 * Deno extracts them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exampleModule, examplesIn } from "./doc_examples.ts";
 *
 * const file = new URL("file:///p/src/add.ts");
 * const fence = "`".repeat(3);
 * const text = [
 *   "/**",
 *   ` * ${fence}ts`,
 *   " * assert.equal(add(1, 2), 3);",
 *   ` * ${fence}`,
 *   " *" + "/",
 *   "export function add(a: number, b: number): number {",
 *   "  return a + b;",
 *   "}",
 * ].join("\n");
 * const [example] = examplesIn(file, "src/add.ts", text);
 * assert.equal(example.name, "src/add.ts#2-4");
 * assert.match(exampleModule(example, text), /^import \{ add \} from "file:\/\/\/p\/src\/add.ts";$/m);
 * ```
 *
 * @module
 */

/** One runnable example of a documented file. */
export interface DocExample {
  /** The documented file (relative to the root) and the lines of the block's fences: `mod.ts#17-29`. */
  name: string;
  /** The documented file: the example's relative imports are resolved against it. */
  file: URL;
  /** The example's code, the comment's leading `*` taken off. */
  code: string;
}

/** The languages `deno test --doc` runs a block of ("" is the documented file's own). */
const LANGUAGES = new Set([
  "",
  "js",
  "javascript",
  "mjs",
  "cjs",
  "jsx",
  "ts",
  "typescript",
  "mts",
  "cts",
  "tsx",
]);

const JSDOC = /\/\*\*[\s\S]*?\*\//g;
const FENCE = /^```(\S*)(.*)$/;

/**
 * The examples `deno test --doc` runs in `text`: the fenced blocks of its
 * JSDoc comments in a JavaScript or TypeScript language (or none), but for
 * those marked `ignore`.
 */
export function examplesIn(file: URL, name: string, text: string): DocExample[] {
  const examples: DocExample[] = [];
  for (const comment of text.matchAll(JSDOC)) {
    const firstLine = text.slice(0, comment.index).split("\n").length;
    const lines = comment[0].split("\n").map((line) => line.replace(/^\s*\*? ?/, ""));
    for (let open = 0; open < lines.length; open++) {
      const fence = FENCE.exec(lines[open].trim());
      if (!fence) continue;
      let close = open + 1;
      while (close < lines.length && !lines[close].trim().startsWith("```")) close++;
      const runs = LANGUAGES.has(fence[1]) && !fence[2].trim().split(/\s+/).includes("ignore");
      if (runs) {
        examples.push({
          name: `${name}#${firstLine + open}-${firstLine + close}`,
          file,
          code: lines.slice(open + 1, close).join("\n"),
        });
      }
      open = close;
    }
  }
  return examples;
}

/** A static import's end: `from "…"` or a bare `import "…"`, its semicolon optional. */
const IMPORT_END = /(?:\bfrom\s*|^import\s*)("[^"]+"|'[^']+')\s*;?\s*$/;

/** The example's top-level import statements and the rest of its code. */
function splitImports(code: string): { imports: string[]; body: string } {
  const imports: string[] = [];
  const body: string[] = [];
  const lines = code.split("\n");
  for (let at = 0; at < lines.length; at++) {
    if (!/^import[\s{*"']/.test(lines[at])) {
      body.push(lines[at]);
      continue;
    }
    const start = at;
    while (at < lines.length - 1 && !IMPORT_END.test(lines[at])) at++;
    imports.push(lines.slice(start, at + 1).join("\n"));
  }
  return { imports, body: body.join("\n") };
}

/** The names an import statement binds. */
function boundBy(statement: string): string[] {
  const clause = statement.replace(/^import\s+(?:type\s+)?/, "").replace(
    /\s*from\s*["'][\s\S]*$/,
    "",
  );
  const names = [...clause.matchAll(/\{([^}]*)\}/g)].flatMap((list) =>
    list[1].split(",").map((entry) =>
      entry.trim().split(/\s+as\s+/).at(-1)!.replace(/^type\s+/, "")
    )
  );
  const outside = clause.replace(/\{[^}]*\}/g, "");
  names.push(
    ...[...outside.matchAll(/(?:\*\s*as\s+)?([A-Za-z_$][\w$]*)/g)].map((match) => match[1]),
  );
  return names.filter((name) => name.length > 0);
}

/** The values a module exports by name: declarations and export lists (types need no import). */
export function exportedValues(text: string): string[] {
  const declared = text.matchAll(
    /^export\s+(?:declare\s+)?(?:async\s+)?(?:function\*?|const|let|var|class|abstract\s+class|enum)\s+([A-Za-z_$][\w$]*)/gm,
  );
  const listed = [...text.matchAll(/^export\s*\{([^}]*)\}/gm)].flatMap((list) =>
    list[1].split(",").map((entry) => entry.trim()).filter((entry) =>
      entry.length > 0 && !entry.startsWith("type ")
    ).map((entry) => entry.split(/\s+as\s+/).at(-1)!)
  );
  return [...new Set([...[...declared].map((match) => match[1]), ...listed])];
}

/**
 * The test module of `example`, whose documented file reads `fileText`: its
 * imports hoisted, relative ones made absolute (the module is written
 * elsewhere), the file's exported values it names and does not import
 * imported from the file, as `deno test --doc` does, and the rest of its code
 * the body of one `Deno.test` named for it.
 */
export function exampleModule(example: DocExample, fileText: string): string {
  const { imports, body } = splitImports(example.code);
  const absolute = imports.map((statement) =>
    statement.replace(
      /(["'])(\.{1,2}\/[^"']+)\1(\s*;?\s*)$/,
      (_, quote, path, end) => `${quote}${new URL(path, example.file).href}${quote}${end}`,
    )
  );
  const bound = new Set(imports.flatMap(boundBy));
  const used = exportedValues(fileText).filter((name) =>
    !bound.has(name) &&
    new RegExp(`(?<![\\w$.])${name.replaceAll("$", "\\$")}(?![\\w$])`).test(body)
  );
  if (used.length > 0) absolute.push(`import { ${used.join(", ")} } from "${example.file.href}";`);
  return `${absolute.join("\n")}\n\nDeno.test(${
    JSON.stringify(example.name)
  }, async () => {\n${body}\n});\n`;
}
