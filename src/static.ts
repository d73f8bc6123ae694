/**
 * Serves the single-page UI from the module built by `scripts/build_ui.ts`:
 * hashed assets (immutable, precompressed) and `index.html` for every other
 * path, with the base path, title and favicon filled in. Nothing is read from
 * a file system, so it works on JSR and Deno Deploy.
 *
 * @module
 */
import { type Context, Hono } from "hono";
import { gunzipSync } from "node:zlib";
import { assets, indexHtml } from "../ui/dist/assets.ts";

/** Options of {@link serveUi}. */
export interface ServeUiOptions {
  /** Where the board is mounted, e.g. `/board` (a trailing `/` is optional). */
  basePath: string;
  /** Page title until `/api/config` has loaded. */
  title: string;
  /** Favicon URL; the built-in icon when absent or null. */
  favicon?: string | null;
}

const IMMUTABLE = "public, max-age=31536000, immutable";
const DEFAULT_FAVICON = Object.keys(assets).find((name) => name.startsWith("favicon."));

/**
 * Creates the UI sub-app. Mount it at the base path after the `/api` routes:
 * it answers GET/HEAD for every path below the base except `/api/*`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { serveUi } from "./static.ts";
 *
 * const app = new Hono();
 * // app.route("/board/api", api) first, then:
 * app.route("/board", serveUi({ basePath: "/board", title: "Queues" }));
 * const res = await app.request("/board/");
 * assert.ok(res.headers.get("content-type")?.startsWith("text/html"));
 * ```
 */
export function serveUi(options: ServeUiOptions): Hono {
  const prefix = normalizeBase(options.basePath);
  const html = renderIndex(`${prefix}/`, options.title, options.favicon ?? null);
  const htmlEtag = `"${fnv1a(html)}"`;
  const app = new Hono();

  app.get("/assets/:name", function serveAsset(c) {
    const raw = new URL(c.req.url).pathname;
    const name = c.req.param("name");
    // Only exact, known names: no dot segments, no encoded separators.
    if (/%2f|%5c|\\/i.test(raw) || !Object.hasOwn(assets, name)) return notFound(c);
    const asset = assets[name];
    const gzip = asset.gzip !== undefined && acceptsGzip(c.req.header("accept-encoding"));
    const etag = gzip ? `${asset.etag.slice(0, -1)}-gz"` : asset.etag;
    const headers: Record<string, string> = {
      "Cache-Control": IMMUTABLE,
      "Content-Type": asset.type,
      "ETag": etag,
      "X-Content-Type-Options": "nosniff",
    };
    if (asset.gzip !== undefined) headers["Vary"] = "Accept-Encoding";
    if (matchesEtag(c.req.header("if-none-match"), etag)) {
      return c.body(null, 304, headers);
    }
    if (gzip) headers["Content-Encoding"] = "gzip";
    return c.body(decoded(name, gzip) as Uint8Array<ArrayBuffer>, 200, headers);
  });

  app.get("/assets/*", (c) => notFound(c));

  app.get("*", async function serveIndex(c, next) {
    const path = c.req.path;
    const rel = path.startsWith(prefix) ? path.slice(prefix.length) : path;
    if (rel === "/api" || rel.startsWith("/api/")) return await next();
    // Dot segments are resolved by the URL parser before routing; refuse any
    // that survive, and file-like names at the top level (`/x.txt`, `/favicon.ico`).
    const segments = rel.split("/");
    if (segments.some((s) => s === "." || s === "..") || /^\/[^/]*\.[^/]*$/.test(rel)) {
      return notFound(c);
    }
    const headers = {
      "Cache-Control": "no-cache",
      "Content-Type": "text/html; charset=utf-8",
      "ETag": htmlEtag,
    };
    if (matchesEtag(c.req.header("if-none-match"), htmlEtag)) return c.body(null, 304, headers);
    return c.body(html, 200, headers);
  });

  return app;
}

/** `/board/` → `/board`, `board` → `/board`, `/` → `` (the root). */
function normalizeBase(basePath: string): string {
  const trimmed = basePath.replace(/\/+$/, "");
  if (trimmed === "") return "";
  return trimmed.startsWith("/") ? trimmed : `/${trimmed}`;
}

/** Fills the placeholders of the built `index.html` in one pass, HTML-escaped. */
function renderIndex(base: string, title: string, favicon: string | null): string {
  const values: Record<string, string> = {
    BASE: base,
    TITLE: title,
    FAVICON: favicon ?? `assets/${DEFAULT_FAVICON}`,
  };
  return indexHtml.replace(
    /%QB_(BASE|TITLE|FAVICON)%/g,
    (_, key: string) => escapeHtml(values[key]),
  );
}

/** Escapes text for HTML content and double- or single-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function notFound(c: Context): Response {
  return c.text("Not Found", 404, { "Cache-Control": "no-cache" });
}

/** True when `Accept-Encoding` lists gzip (or `*`) with a non-zero q. */
function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    if (coding.trim() !== "gzip" && coding.trim() !== "*") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** Weak comparison of `If-None-Match` against one ETag (RFC 9110 §13.1.2). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

const cache = new Map<string, Uint8Array>();

/**
 * An asset's bytes, gzipped or not, decoded once and kept. The module holds
 * a compressible asset gzipped only: its plain bytes are unzipped for the
 * first client that takes no gzip.
 */
function decoded(name: string, gzip: boolean): Uint8Array {
  const key = gzip ? `${name}\0gz` : name;
  let bytes = cache.get(key);
  if (!bytes) {
    const { body, gzip: zipped } = assets[name];
    bytes = gzip || body === undefined ? fromBase64(zipped!) : fromBase64(body);
    if (!gzip && body === undefined) bytes = new Uint8Array(gunzipSync(bytes));
    cache.set(key, bytes);
  }
  return bytes;
}

/** An asset's plain bytes, as a client that takes no gzip gets them. */
export function assetBytes(name: string): Uint8Array {
  return decoded(name, false);
}

function fromBase64(b64: string): Uint8Array {
  const bin = atob(b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

/** FNV-1a (32-bit) of a string, as hex: a cheap, stable ETag for the rendered index. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}
