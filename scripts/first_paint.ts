/**
 * What the browser must fetch before the board's first page shows: the
 * entry script, every chunk it imports statically (transitively; a dynamic
 * `import()` waits until its page is shown), and the stylesheet.
 *
 * @module
 */

/** A static `import … from"./x.js"` or `import"./x.js"` of minified bundle code. */
const STATIC_IMPORT = /(?:from|import)\s*"\.\/([\w.-]+\.js)"/g;

/**
 * The names of the assets the first paint needs, given each asset's text by
 * name (`app.<hash>.js` is the entry, `styles.<hash>.css` the stylesheet).
 */
export function firstPaintAssets(textOf: ReadonlyMap<string, string>): string[] {
  const names = [...textOf.keys()];
  const entry = names.find((name) => /^app\..+\.js$/.test(name));
  const styles = names.find((name) => /^styles\..+\.css$/.test(name));
  if (!entry || !styles) throw new Error("the build has no app.*.js or no styles.*.css");
  const needed = new Set([entry]);
  for (const name of needed) {
    for (const [, imported] of textOf.get(name)!.matchAll(STATIC_IMPORT)) {
      if (!textOf.has(imported)) throw new Error(`${name} imports ${imported}, which is not built`);
      needed.add(imported);
    }
  }
  return [...needed, styles];
}
