/**
 * Text contrast of the UI's stylesheet (WCAG 2 AA: 4.5:1 for body text), in
 * the light and the dark theme, computed from the CSS itself: the colour
 * custom properties of `:root` in `ui/styles.css` (each a `light-dark()`
 * pair or one colour for both themes) and the rules of every stylesheet it
 * imports.
 *
 * Two kinds of pairs are checked: every text colour the stylesheets use
 * (`color: var(--…)`) on every surface text sits on anywhere (page, card,
 * the grey of table heads and hovered rows, the sidebar), and, for a rule
 * that sets both, its text colour on its own background (badges, buttons,
 * banners).
 */

import assert from "node:assert/strict";

const UI = new URL("../../ui/", import.meta.url);

/** WCAG AA for text under 18 px (or 14 px bold). */
const AA = 4.5;

/** Surfaces any text can sit on. */
const SURFACES = ["--bg", "--surface", "--surface-2", "--sidebar-bg"];

type Theme = "light" | "dark";

/** One rule: its selector and its declarations, by property. */
interface Rule {
  selector: string;
  declarations: Map<string, string>;
}

/** The stylesheet and, in order, every local stylesheet it `@import`s. */
function readStyles(url: URL): string {
  const css = Deno.readTextFileSync(url);
  return css.replace(
    /@import\s+"(\.[^"]+)";/g,
    (_, path: string) => readStyles(new URL(path, url)),
  );
}

/** Every innermost `selector { declarations }` block (rules inside `@media` included). */
function parseRules(css: string): Rule[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, "");
  return [...text.matchAll(/([^{}]+)\{([^{}]*)\}/g)].map(([, selector, body]) => ({
    selector: selector.trim(),
    declarations: new Map(
      body.split(";").map((line) => line.split(/:(.*)/s).map((part) => part.trim()))
        .filter(([property, value]) => property && value)
        .map(([property, value]) => [property, value.replace(/\s+/g, " ")]),
    ),
  }));
}

/** A colour: sRGB channels 0–255 and alpha 0–1. */
type Rgba = [number, number, number, number];

/** A colour value in each theme. */
type Themed = Record<Theme, Rgba>;

const THEMES = ["light", "dark"] as const;

/** `#abc` or `#aabbcc`. */
function parseHex(hex: string): Rgba {
  const digits = hex.length === 4
    ? [...hex.slice(1)].map((d) => d + d)
    : hex.slice(1).match(/../g)!;
  const [r, g, b] = digits.map((pair) => parseInt(pair, 16));
  return [r, g, b, 1];
}

/** `a` painted over the opaque `b`. */
function over(a: Rgba, b: Rgba): Rgba {
  const [r, g, bl] = [0, 1, 2].map((i) => a[i] * a[3] + b[i] * (1 - a[3]));
  return [r, g, bl, 1];
}

/** WCAG 2 relative luminance of an opaque colour. */
function luminance([r, g, b]: Rgba): number {
  const [lr, lg, lb] = [r, g, b].map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * lr + 0.7152 * lg + 0.0722 * lb;
}

/** WCAG 2 contrast ratio of two opaque colours, 1–21. */
function contrast(a: Rgba, b: Rgba): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** The top-level comma-separated arguments of a function's inside. */
function splitArguments(inside: string): string[] {
  const parts = [""];
  let depth = 0;
  for (const char of inside) {
    if (char === "," && depth === 0) parts.push("");
    else parts[parts.length - 1] += char;
    if (char === "(") depth++;
    if (char === ")") depth--;
  }
  return parts.map((part) => part.trim());
}

/**
 * A colour value in each theme, or null for what this test does not judge
 * (`none`, `currentColor`, `rgb()`…). Understands `#hex`, `transparent`,
 * `light-dark(a, b)`, `color-mix(in srgb, a p%, b)` and `var(--name, fallback)`
 * of any of those, the names taken from `tokens`.
 */
function resolve(value: string, tokens: Map<string, string>): Themed | null {
  if (/^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(value)) {
    return { light: parseHex(value), dark: parseHex(value) };
  }
  if (value === "transparent") return { light: [0, 0, 0, 0], dark: [0, 0, 0, 0] };
  const call = /^([\w-]+)\((.*)\)$/s.exec(value);
  if (!call) return null;
  const [, name, inside] = call;
  const args = splitArguments(inside);
  if (name === "var") {
    const token = tokens.get(args[0]);
    if (token !== undefined) return resolve(token, tokens);
    return args[1] === undefined ? null : resolve(args[1], tokens);
  }
  if (name === "light-dark") {
    const [light, dark] = args.map((arg) => resolve(arg, tokens));
    return light && dark ? { light: light.light, dark: dark.dark } : null;
  }
  if (name === "color-mix" && args[0] === "in srgb") {
    const [a, b] = args.slice(1).map((arg) => /^(.*?)(?:\s+([\d.]+)%)?$/.exec(arg)!);
    const share = a[2] === undefined ? 0.5 : Number(a[2]) / 100;
    const [ca, cb] = [resolve(a[1], tokens), resolve(b[1], tokens)];
    if (!ca || !cb) return null;
    // Premultiplied by alpha, as CSS mixes.
    const mix = (x: Rgba, y: Rgba): Rgba => {
      const alpha = x[3] * share + y[3] * (1 - share);
      const channel = (i: number) => (x[i] * x[3] * share + y[i] * y[3] * (1 - share)) / alpha;
      return [channel(0), channel(1), channel(2), alpha];
    };
    return { light: mix(ca.light, cb.light), dark: mix(ca.dark, cb.dark) };
  }
  return null;
}

const rules = parseRules(readStyles(new URL("styles.css", UI)));
const root = rules.find((rule) => rule.selector === ":root");
assert.ok(root, "ui/styles.css has a :root rule");
const tokens = new Map([...root.declarations].filter(([name]) => name.startsWith("--")));

/**
 * The tokens under which to judge a value: as they are, and, for a value
 * that takes its colour from a state (`var(--st)`), once per state colour.
 */
function variants(value: string): Map<string, string>[] {
  if (!value.includes("var(--st")) return [tokens];
  const states = [...tokens.keys()].filter((name) => name.startsWith("--st-"));
  return [tokens, ...states.map((state) => new Map([...tokens, ["--st", `var(${state})`]]))];
}

/** The variants under which both colours resolve (none: not a pair this test judges). */
function judgedUnder(text: string, background: string): Map<string, string>[] {
  return variants(`${text} ${background}`).filter((names) =>
    resolve(text, names) !== null && resolve(background, names) !== null
  );
}

/** One text colour on one background, and where the pair comes from. */
interface Pair {
  text: string;
  background: string;
  where: string;
}

/**
 * Each pair below 4.5:1, as `where, state colour (theme): lowest ratio`. A
 * translucent background is judged over every surface.
 */
function failures(pairs: Pair[]): string[] {
  const found: string[] = [];
  for (const { text, background, where } of pairs) {
    for (const names of judgedUnder(text, background)) {
      const fg = resolve(text, names)!;
      const bg = resolve(background, names)!;
      const state = names === tokens ? "" : `, ${names.get("--st")}`;
      for (const theme of THEMES) {
        const grounds = bg[theme][3] === 1
          ? [bg[theme]]
          : SURFACES.map((surface) => over(bg[theme], resolve(`var(${surface})`, tokens)![theme]));
        const ratio = Math.min(
          ...grounds.map((ground) => contrast(over(fg[theme], ground), ground)),
        );
        if (ratio < AA) found.push(`${where}${state} (${theme}): ${ratio.toFixed(2)}:1`);
      }
    }
  }
  return [...found];
}

Deno.test("contrast() follows WCAG 2: 21:1 for black on white, 4.48:1 for #777 on white", () => {
  assert.equal(contrast(parseHex("#000"), parseHex("#fff")), 21);
  assert.equal(contrast(parseHex("#fff"), parseHex("#000000")), 21);
  assert.equal(contrast(parseHex("#777777"), parseHex("#ffffff")).toFixed(2), "4.48");
});

Deno.test("resolve() reads light-dark() pairs and mixes colours as CSS does", () => {
  const names = new Map([["--ink", "light-dark(#000000, #ffffff)"]]);
  assert.deepEqual(resolve("var(--ink)", names), { light: [0, 0, 0, 1], dark: [255, 255, 255, 1] });
  assert.deepEqual(resolve("var(--none, #fff)", names)?.light, [255, 255, 255, 1]);
  assert.deepEqual(
    resolve("color-mix(in srgb, #ff0000 25%, transparent)", names)?.light,
    [255, 0, 0, 0.25],
  );
  assert.deepEqual(
    resolve("color-mix(in srgb, var(--ink) 50%, #ffffff)", names)?.light,
    [127.5, 127.5, 127.5, 1],
  );
  assert.equal(resolve("currentColor", names), null);
});

Deno.test("every text colour the UI uses reaches 4.5:1 on every surface, in both themes", () => {
  const texts = new Set(
    rules.map((rule) => rule.declarations.get("color"))
      .filter((value): value is string => value?.startsWith("var(--") === true)
      .filter((value) => resolve(value, tokens) !== null),
  );
  assert.ok(texts.has("var(--text-muted)"), "the muted text colour is among them");
  const pairs = [...texts].flatMap((text) =>
    SURFACES.map((surface) => ({
      text,
      background: `var(${surface})`,
      where: `${text} on var(${surface})`,
    }))
  );
  assert.deepEqual(failures(pairs), []);
});

Deno.test("a rule's text colour reaches 4.5:1 on the rule's own background, in both themes", () => {
  const pairs = rules.flatMap((rule): Pair[] => {
    const text = rule.declarations.get("color");
    const background = rule.declarations.get("background") ??
      rule.declarations.get("background-color");
    if (!text || !background || judgedUnder(text, background).length === 0) return [];
    return [{ text, background, where: rule.selector }];
  });
  // A rule may name several selectors (`.health-neutral, .status-neutral`).
  const judged = new Set(pairs.flatMap((pair) => pair.where.split(",").map((s) => s.trim())));
  for (const selector of [".health-neutral", ".state-badge", ".btn-primary"]) {
    assert.ok(judged.has(selector), `${selector} is among them`);
  }
  assert.deepEqual(failures(pairs), []);
});

Deno.test("a workflow node's text reaches 4.5:1 on its box, at rest and hovered, in both themes", () => {
  const fill = (selector: string) => {
    const value = rules.find((rule) => rule.selector === selector)?.declarations.get("fill");
    assert.ok(value, `${selector} has a fill`);
    return value;
  };
  const pairs = [".wf-node-name", ".wf-node-meta"].flatMap((text) =>
    [".wf-node-box", ".wf-node:hover .wf-node-box"].map((box) => ({
      text: fill(text),
      background: fill(box),
      where: `${text} on ${box}`,
    }))
  );
  assert.deepEqual(failures(pairs), []);
});
