/**
 * Builds the UI into one committed module, `ui/dist/assets.ts`, so the board
 * serves its UI without a file system (JSR, Deno Deploy).
 *
 * Steps: `deno bundle --platform=browser --minify` on `ui/main.ts` (with code
 * splitting: libraries imported dynamically become their own chunks), on
 * `ui/styles.css` and on the stylesheets a chunk links when it loads
 * ({@link LAZY_STYLESHEETS}; esbuild minifies CSS too); read `ui/favicon.svg`; name each asset by a short SHA-256 of
 * its content (`app.3f2a9c1e.js`); gzip it with `CompressionStream`; wire the
 * hashed names into `ui/index.html` and into the chunks that link a
 * stylesheet; write base64 bodies into the module.
 * The output depends only on the inputs (and the Deno/esbuild version), so
 * `--check` can rebuild in memory and fail when the committed file is stale.
 *
 * @example Build, then verify freshness (as CI does)
 * ```sh
 * deno task build
 * deno run --allow-all scripts/build_ui.ts --check
 * ```
 *
 * @module
 */

import { firstPaintAssets } from "./first_paint.ts";
import { collapseHtmWhitespace, htmTags } from "./htm_whitespace.ts";

const ROOT = new URL("../", import.meta.url);
const UI = new URL("ui/", ROOT);
const OUT = new URL("ui/dist/assets.ts", ROOT);

/**
 * One built asset as stored in the generated module: its gzip variant when
 * that is worth it, else its body (the server unzips the first for a client
 * that takes no gzip); both halved the published module (684 KB).
 */
export interface BuiltAsset {
  type: string;
  body?: string;
  gzip?: string;
  etag: string;
}

/** Everything the generated module exports. */
export interface Build {
  assets: Record<string, BuiltAsset>;
  indexHtml: string;
}

async function runBundle(args: string[]): Promise<Uint8Array> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--platform=browser", "--minify", ...args],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  if (code !== 0) {
    throw new Error(`deno bundle ${args.join(" ")} failed:\n${new TextDecoder().decode(stderr)}`);
  }
  return stdout;
}

/**
 * Stylesheets that only a lazily loaded chunk needs, so the first paint does
 * not fetch them: each entry's source, and the path the UI links it by
 * (`assets/<stem>.css`), which the build replaces in the chunk that names it
 * with the hashed name (`assets/<stem>.<hash>.css`). uPlot's is linked by
 * the chart component when it loads uPlot (see `ui/components/uplot_chart.ts`).
 */
const LAZY_STYLESHEETS = [
  { entry: "ui/components/uplot_chart.css", stem: "uPlot", linked: "assets/uPlot.css" },
] as const;

/** Bundles and minifies a stylesheet (esbuild inlines its `@import`s). */
async function bundleCss(entry: string): Promise<Uint8Array> {
  return await runBundle([entry]);
}

/**
 * Bundles the app with code splitting: the entry (the shell), one chunk per
 * page and per dynamically imported library (uPlot, d3-dag), and the chunks
 * they share, so each loads only on the views that need it. Returns the entry and the chunks by file name,
 * with every chunk renamed by {@link renameChunks}; the entry imports them
 * relative to itself, so they are served next to it. `links` gives the hashed
 * names of the stylesheets chunks link (see {@link linkHashedNames}), once
 * the app's bundling has filled the npm cache their `@import`s read.
 */
async function bundleApp(
  entry: string,
  links: () => Promise<ReadonlyMap<string, string>>,
): Promise<{ main: Uint8Array; chunks: Map<string, Uint8Array> }> {
  const outdir = await Deno.makeTempDir({ prefix: "queue-board-ui-" });
  try {
    await runBundle(["--code-splitting", "--outdir", outdir, entry]);
    const files = new Map<string, string>();
    for await (const file of Deno.readDir(outdir)) {
      if (!file.name.endsWith(".js")) {
        throw new Error(`deno bundle wrote an unexpected file: ${file.name}`);
      }
      files.set(file.name, await Deno.readTextFile(`${outdir}/${file.name}`));
    }
    for (const [name, tag] of htmTags(files)) {
      files.set(name, collapseHtmWhitespace(files.get(name)!, tag));
    }
    linkHashedNames(files, await links());
    const main = files.get("main.js");
    if (main === undefined) throw new Error("deno bundle wrote no main.js");
    files.delete("main.js");
    const renamed = await renameChunks(main, files);
    const encoder = new TextEncoder();
    return {
      main: encoder.encode(renamed.main),
      chunks: new Map([...renamed.chunks].map(([name, text]) => [name, encoder.encode(text)])),
    };
  } finally {
    await Deno.remove(outdir, { recursive: true });
  }
}

/**
 * Replaces, in the one file that names it, each path a chunk links a
 * stylesheet by (`"assets/uPlot.css"`) with the hashed one, before the
 * chunks are named by their text: a new stylesheet renames its chunk.
 */
function linkHashedNames(files: Map<string, string>, links: ReadonlyMap<string, string>): void {
  for (const [linked, hashed] of links) {
    const naming = [...files].filter(([, text]) => text.includes(`"${linked}"`));
    if (naming.length !== 1) {
      throw new Error(`"${linked}" must be named in exactly one file (found ${naming.length})`);
    }
    const [[name, text]] = naming;
    files.set(name, text.replaceAll(`"${linked}"`, `"${hashed}"`));
  }
}

const ESBUILD_CHUNK = /^(.+)-[A-Z0-9]{8}\.js$/;

/**
 * esbuild names a chunk `<stem>-<HASH>.js`, and that hash covers the paths of
 * its inputs, which sit in the npm cache (`DENO_DIR`): the same sources built
 * on another machine would get other names, and `--check` would fail there.
 * So each chunk is renamed `<stem>.<hash>.js`, hashing its own text and the
 * text of every chunk it reaches, with chunk references reduced to their
 * stems; a chunk's name then changes whenever anything it loads changes.
 */
async function renameChunks(
  main: string,
  chunks: Map<string, string>,
): Promise<{ main: string; chunks: Map<string, string> }> {
  const stemOf = (name: string) => {
    const match = ESBUILD_CHUNK.exec(name);
    if (!match) throw new Error(`deno bundle wrote a chunk with an unexpected name: ${name}`);
    return match[1];
  };
  const names = [...chunks.keys()];
  const referencesIn = (text: string) => names.filter((name) => text.includes(name));
  const replaceAll = (text: string, to: (name: string) => string) =>
    names.reduce((out, name) => out.replaceAll(name, to(name)), text);
  const normalized = new Map(names.map((name) => [name, replaceAll(chunks.get(name)!, stemOf)]));

  const finalName = new Map<string, string>();
  for (const name of names) {
    const reached = new Set([name]);
    for (const seen of reached) {
      for (const next of referencesIn(chunks.get(seen)!)) reached.add(next);
    }
    const texts = [...reached].map((each) => normalized.get(each)!).sort();
    const hash = await sha256Hex(new TextEncoder().encode(texts.join("\0")));
    const renamed = `${stemOf(name)}.${hash.slice(0, 8)}.js`;
    if ([...finalName.values()].includes(renamed)) throw new Error(`two chunks named ${renamed}`);
    finalName.set(name, renamed);
  }
  const rename = (name: string) => finalName.get(name)!;
  return {
    main: replaceAll(main, rename),
    chunks: new Map(names.map((name) => [rename(name), replaceAll(chunks.get(name)!, rename)])),
  };
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function base64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin);
}

const JS = "text/javascript; charset=utf-8";

/** One asset; named `<stem>.<hash>.<ext>`, or exactly `fixedName` (a chunk already named by its content). */
async function asset(
  stem: string,
  ext: string,
  type: string,
  bytes: Uint8Array,
  fixedName?: string,
) {
  const hash = await sha256Hex(bytes);
  const name = fixedName ?? `${stem}.${hash.slice(0, 8)}.${ext}`;
  const etag = `"${hash.slice(0, 16)}"`;
  const gz = await gzip(bytes);
  // Gzip only when it is worth it: a small or already compressed asset is kept as it is.
  const entry: BuiltAsset = gz.length < bytes.length * 0.9
    ? { type, gzip: base64(gz), etag }
    : { type, body: base64(bytes), etag };
  return { name, entry, size: bytes.length, gzipSize: gz.length };
}

/** A stylesheet asset. */
function cssAsset(stem: string, bytes: Uint8Array) {
  return asset(stem, "css", "text/css; charset=utf-8", bytes);
}

/** Builds everything in memory; returns the module text and size facts. */
export async function build(): Promise<{
  source: string;
  sizes: Record<string, number[]>;
  firstPaint: string[];
}> {
  // The app first: bundling it fills the npm cache, and a stylesheet's `@import` of uPlot's CSS
  // reads from that cache without filling it. The stylesheets chunks link are built meanwhile,
  // for their hashed names.
  let lazyCss: Awaited<ReturnType<typeof cssAsset>>[] = [];
  const js = await bundleApp("ui/main.ts", async () => {
    lazyCss = await Promise.all(
      LAZY_STYLESHEETS.map(async ({ entry, stem }) => cssAsset(stem, await bundleCss(entry))),
    );
    return new Map(LAZY_STYLESHEETS.map(({ linked }, i) => [linked, `assets/${lazyCss[i].name}`]));
  });
  const [css, icon, template] = await Promise.all([
    bundleCss("ui/styles.css"),
    Deno.readFile(new URL("favicon.svg", UI)),
    Deno.readTextFile(new URL("index.html", UI)),
  ]);
  const built = await Promise.all([
    asset("app", "js", JS, js.main),
    cssAsset("styles", css),
    asset("favicon", "svg", "image/svg+xml", icon),
    ...[...js.chunks].map(([name, bytes]) => asset("", "js", JS, bytes, name)),
  ]);
  built.push(...lazyCss);
  const [app, styles] = built;

  let indexHtml = template;
  for (const [from, to] of [["assets/app.js", app.name], ["assets/styles.css", styles.name]]) {
    if (!indexHtml.includes(from)) throw new Error(`ui/index.html must reference ${from}`);
    indexHtml = indexHtml.replace(from, `assets/${to}`);
  }
  for (const placeholder of ["%QB_BASE%", "%QB_TITLE%", "%QB_FAVICON%"]) {
    if (!indexHtml.includes(placeholder)) {
      throw new Error(`ui/index.html must contain ${placeholder}`);
    }
  }

  const assets: Record<string, BuiltAsset> = {};
  const sizes: Record<string, number[]> = {};
  for (const { name, entry, size, gzipSize } of built) {
    assets[name] = entry;
    sizes[name] = [size, gzipSize];
  }
  const decoder = new TextDecoder();
  const texts = new Map([
    [app.name, decoder.decode(js.main)],
    [styles.name, decoder.decode(css)],
    ...[...js.chunks].map(([name, bytes]) => [name, decoder.decode(bytes)] as const),
  ]);
  return { source: render({ assets, indexHtml }), sizes, firstPaint: firstPaintAssets(texts) };
}

/** Renders the generated module: one line per field, stable key order. */
function render({ assets, indexHtml }: Build): string {
  const lines = [
    "// Generated by scripts/build_ui.ts from ui/. Do not edit: run `deno task build`.",
    "// deno-fmt-ignore-file",
    "// deno-lint-ignore-file",
    "",
    "/** The UI's hashed assets: base64, gzipped when worth it (else the body), strong ETag. */",
    "export const assets: Record<string, { type: string; body?: string; gzip?: string; etag: string }> = {",
  ];
  for (const name of Object.keys(assets).sort()) {
    const a = assets[name];
    lines.push(`  ${JSON.stringify(name)}: {`);
    lines.push(`    type: ${JSON.stringify(a.type)},`);
    lines.push(`    etag: ${JSON.stringify(a.etag)},`);
    if (a.body !== undefined) lines.push(`    body: ${JSON.stringify(a.body)},`);
    if (a.gzip) lines.push(`    gzip: ${JSON.stringify(a.gzip)},`);
    lines.push("  },");
  }
  lines.push("};", "");
  lines.push(
    "/** `index.html` with hashed asset names; `%QB_BASE%`, `%QB_TITLE%`, `%QB_FAVICON%` are filled in when served. */",
  );
  lines.push(`export const indexHtml: string = ${JSON.stringify(indexHtml)};`, "");
  return lines.join("\n");
}

async function main(args: string[]): Promise<number> {
  const check = args.includes("--check");
  const { source, sizes, firstPaint } = await build();
  if (check) {
    let current: string | null = null;
    try {
      current = await Deno.readTextFile(OUT);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
    if (current !== source) {
      console.error(
        current === null
          ? "ui/dist/assets.ts is missing: run `deno task build` and commit the result."
          : "ui/dist/assets.ts is stale (ui/ changed since the last build): run `deno task build` and commit the result.",
      );
      return 1;
    }
    console.log("ui/dist/assets.ts is up to date.");
    return 0;
  }
  await Deno.mkdir(new URL("ui/dist/", ROOT), { recursive: true });
  await Deno.writeTextFile(OUT, source);
  let total = 0;
  for (const [name, [raw, gz]] of Object.entries(sizes)) {
    console.log(
      `${name.padEnd(32)} ${String(raw).padStart(7)} B  gzip ${String(gz).padStart(6)} B`,
    );
    if (!name.startsWith("favicon.")) total += gz;
  }
  const firstPaintBytes = firstPaint.reduce((sum, name) => sum + sizes[name][1], 0);
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log(
    `JS + CSS gzipped, every chunk: ${kb(total)}; first paint (entry, its static imports, CSS): ${
      kb(firstPaintBytes)
    }`,
  );
  console.log(`wrote ui/dist/assets.ts (${(source.length / 1024).toFixed(1)} KB)`);
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
