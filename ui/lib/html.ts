/**
 * The one `html` tagged template the UI renders with: htm bound to Preact's `h`.
 * Values interpolated into it are always text or props, never parsed as HTML.
 *
 * @module
 */
import { h } from "preact";
import htmImport from "htm";

// htm ships an ESM build, but its package.json has no `"type": "module"`, so
// TypeScript reads its `export default` as CommonJS and types the default
// import as the module namespace. At run time (browser bundle and Deno) the
// default import is the htm object itself; this cast only fixes the type.
type Htm = typeof htmImport extends { default: infer D } ? D : typeof htmImport;
const htm = htmImport as unknown as Htm;

/** Tagged template producing Preact elements: ``html`<p>${text}</p>` ``. */
export const html = htm.bind(h);
