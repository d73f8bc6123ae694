/**
 * What the build's collapse of htm templates (`scripts/htm_whitespace.ts`)
 * removes renders the same: each template below is run through htm as
 * written and as collapsed, and the trees compared, a run of whitespace in
 * text counting as one space (as HTML renders it).
 */

import assert from "node:assert/strict";
import htmImport from "htm";
import { collapseHtmWhitespace } from "../../scripts/htm_whitespace.ts";

type Htm = typeof htmImport extends { default: infer D } ? D : typeof htmImport;
const htm = htmImport as unknown as Htm;
/** A tree as data: what htm hands `h`, each text's whitespace as HTML renders it. */
const h = (type: unknown, props: unknown, ...children: unknown[]) => ({
  type,
  props,
  children: children.map((child) => typeof child === "string" ? child.replace(/\s+/g, " ") : child),
});

/** The tree `source` (a module whose templates are tagged `html`) renders, with `values` as `v`. */
function render(source: string, values: Record<string, unknown>): unknown {
  const html = htm.bind(h);
  return new Function("html", "v", `return ${source};`)(html, values);
}

const TEMPLATES = [
  'html`\n  <div class="a">\n    <p>one</p>\n    <p>\n      two ${v.x}\n    </p>\n  </div>\n`',
  "html`\n  ${v.x}\n  <span>${v.y}</span>\n`",
  'html`<a\n  href=${v.x}\n  class="b"\n>\n  Go\n</a>`',
  "html`<p>Signed in as <strong>${v.x}</strong>${v.y}</p>`",
  "html`<${v.C}\n  title=${v.x}\n  flush=${true}\n>\n  ${v.y}\n<//>`",
  "html`\n  <ul>\n    ${[1, 2].map((n) => html`\n      <li key=${n}>${n} of ${v.x}</li>\n    `)}\n  </ul>\n`",
  "html`<p>a\n  b</p>`",
  "html`<p>${v.x}\n  words\n  ${v.y}</p>`",
];

Deno.test("collapsed htm templates render the same trees, in fewer bytes", () => {
  const values = { x: "X", y: "Y", C: "card" };
  for (const template of TEMPLATES) {
    const collapsed = collapseHtmWhitespace(template, "html");
    assert.deepEqual(render(collapsed, values), render(template, values), template);
    assert.ok(collapsed.length < template.length || !template.includes("\n"), template);
  }
});

Deno.test("a line break touching a tag at the end of text goes; one between words stays", () => {
  assert.equal(
    collapseHtmWhitespace("html`\n  <div>\n    <p>x</p>\n  </div>\n`", "html"),
    "html`<div><p>x</p></div>`",
  );
  assert.equal(collapseHtmWhitespace("html`<p>a\n  b</p>`", "html"), "html`<p>a\nb</p>`");
  assert.equal(
    collapseHtmWhitespace('html`<a\n  href=${x}\n  class="b"\n>`', "html"),
    'html`<a\nhref=${x}\nclass="b"\n>`',
  );
  assert.equal(collapseHtmWhitespace("f`\n  <p>\n  </p>\n`", "html"), "f`\n  <p>\n  </p>\n`");
});
