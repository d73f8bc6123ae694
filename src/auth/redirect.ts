/**
 * Where a login may send the browser afterwards: only a path inside the
 * board, so the login form is never an open redirect.
 *
 * @module
 */

const PLACEHOLDER_ORIGIN = "http://board.invalid";

/** The board's home for a base path: `/board/`, or `/` at the root. */
export function homeOf(basePath: string): string {
  return basePath === "/" ? "/" : `${basePath}/`;
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * Returns `target` when it is a path inside `basePath` (after the URL parser
 * has resolved `..` and encodings), else the board's home. Absolute URLs,
 * protocol-relative `//host`, backslashes, control characters and
 * `javascript:` all fall back home.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(safeRedirect("/board/jobs/42?tab=logs", "/board"), "/board/jobs/42?tab=logs");
 * assert.deepEqual(safeRedirect("//evil.example/board", "/board"), "/board/");
 * ```
 */
export function safeRedirect(target: unknown, basePath: string): string {
  const home = homeOf(basePath);
  if (typeof target !== "string" || !target.startsWith("/") || target.startsWith("//")) {
    return home;
  }
  if (target.includes("\\") || hasControlCharacter(target)) return home;
  let url: URL;
  try {
    url = new URL(target, PLACEHOLDER_ORIGIN);
  } catch {
    return home;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return home;
  const inside = basePath === "/" || url.pathname === basePath ||
    url.pathname.startsWith(`${basePath}/`);
  if (!inside || url.pathname.startsWith(`${home}login`)) return home;
  return `${url.pathname}${url.search}${url.hash}`;
}
