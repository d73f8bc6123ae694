/**
 * The `basePath` option: one leading slash, no trailing slash, `/` for the
 * root; refused, saying why, when no request path could match it.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { mustShowing } from "../config_fields.ts";

/**
 * Base paths the board cannot be served under, with the reason. Requests are
 * routed by their decoded path, and the base path is also the session
 * cookie's `Path` and the UI's `<base href>`, so it must read the same in all
 * three and match only itself.
 */
const UNMATCHABLE_BASE_PATHS: [RegExp, string][] = [
  [
    /%/,
    "requests are routed by their decoded path, so a percent-encoded character never matches: write the character itself",
  ],
  [/[?#]/, "? and # start a URL's query and fragment, never part of its path"],
  [
    /^\/\//,
    "a leading // names a host: the UI's <base href> and the login redirects would leave the board",
  ],
  [/(^|\/)\.{1,2}(\/|$)/, "the URL parser resolves . and .. segments before any request is routed"],
  [/\*/, "* is a router wildcard: the board would answer paths it does not own"],
  [
    /\/:/,
    "a segment starting with : is a router parameter: the board would answer paths it does not own",
  ],
  [/;/, "; would end the session cookie's Path attribute"],
  [
    /[^A-Za-z0-9\-._~!$&'()+,=:@/]/,
    "browsers percent-encode spaces, quotes, brackets and non-ASCII characters, so the path they send would not match",
  ],
];

const ALLOWED = 'a path starting with "/" made of URL path characters';

/** The `basePath` option, normalised (default `/board`). */
export const BasePathSchema = z.string({ error: mustShowing(ALLOWED) })
  .superRefine((path, ctx) => {
    const trimmed = path.replace(/\/+$/, "");
    const rule = path.startsWith("/")
      ? UNMATCHABLE_BASE_PATHS.find(([pattern]) => pattern.test(trimmed))
      : undefined;
    if (path.startsWith("/") && !rule) return;
    ctx.addIssue({
      code: "custom",
      input: path,
      message: mustShowing(ALLOWED, { why: rule?.[1] })({ input: path }),
    });
  })
  .transform((path) => path.replace(/\/+$/, "") || "/")
  .default("/board");
