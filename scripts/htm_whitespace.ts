/**
 * Collapses the indentation inside htm templates of a minified bundle: every
 * run of whitespace that holds a line break becomes one line break, and goes
 * where it touches a tag's `<` or `>` at the end of text (between two tags,
 * after a tag before a `${…}` or the template's end, after a `${…}` or the
 * template's start before a tag), as does a template's first or last text
 * when it is only a line break. htm drops text that is only such whitespace
 * and trims it at the ends of text, and inside a tag a line break separates
 * attributes like a space, so what renders is unchanged (no template of ours
 * puts literal text in a `<pre>`); esbuild keeps template text as written, so
 * the indentation is ~1.6 KB gzipped and those line breaks 0.6 KB more.
 *
 * The scanner knows strings, templates with `${…}` nesting, and regular
 * expression literals (a `/` where an operand may start); templates are
 * collapsed only when tagged with `tag`, the bound htm.
 *
 * @module
 */

const IDENT = /[\w$]/;

/** `code` with the whitespace of every template tagged `tag` collapsed. */
export function collapseHtmWhitespace(code: string, tag: string): string {
  let out = "";
  let i = 0;
  // Per open `${`: the brace depth inside it. Per open template: whether it is collapsed.
  const braces: number[] = [];
  const templates: boolean[] = [];
  let last = "";

  /** One piece of a template's text: at the template's start, or at its end. */
  const collapsed = (text: string, atStart: boolean, atEnd: boolean) => {
    const lines = text.replace(/\s*\n\s*/g, "\n").replaceAll(">\n<", "><")
      .replace(/^\n</, "<").replace(/>\n$/, ">");
    return lines === "\n" && (atStart || atEnd) ? "" : lines;
  };

  const templateText = (collapse: boolean, atStart: boolean) => {
    // From i (inside a template's text) to its end or to a `${`.
    let text = "";
    while (i < code.length) {
      const c = code[i];
      if (c === "\\") {
        text += code.slice(i, i + 2);
        i += 2;
      } else if (c === "`") {
        i++;
        templates.pop();
        out += (collapse ? collapsed(text, atStart, true) : text) + "`";
        last = "`";
        return;
      } else if (c === "$" && code[i + 1] === "{") {
        i += 2;
        braces.push(0);
        out += (collapse ? collapsed(text, atStart, false) : text) + "${";
        last = "{";
        return;
      } else {
        text += c;
        i++;
      }
    }
    throw new Error("unterminated template in the bundle");
  };

  while (i < code.length) {
    const c = code[i];
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (code[j] !== c) j += code[j] === "\\" ? 2 : 1;
      out += code.slice(i, j + 1);
      i = j + 1;
      last = c;
    } else if (c === "`") {
      let start = out.length;
      while (start > 0 && IDENT.test(out[start - 1])) start--;
      const collapse = out.slice(start) === tag && (start === 0 || !/[.\w$]/.test(out[start - 1]));
      templates.push(collapse);
      out += c;
      i++;
      templateText(collapse, true);
    } else if (
      c === "/" &&
      (last === "" || /[(,=:[!&|?{};+\-*%<>~^]/.test(last) ||
        /\breturn$|\btypeof$|\bcase$|\bin$|\bof$/.test(out.slice(-7)))
    ) {
      let j = i + 1;
      let inClass = false;
      while (code[j] !== "/" || inClass) {
        if (code[j] === "\\") j++;
        else if (code[j] === "[") inClass = true;
        else if (code[j] === "]") inClass = false;
        j++;
      }
      j++;
      while (IDENT.test(code[j] ?? "")) j++;
      out += code.slice(i, j);
      i = j;
      last = "/";
    } else if (c === "{" && braces.length > 0) {
      braces[braces.length - 1]++;
      out += c;
      i++;
      last = c;
    } else if (c === "}" && braces.length > 0 && braces[braces.length - 1] === 0) {
      braces.pop();
      out += c;
      i++;
      templateText(templates[templates.length - 1], false);
    } else {
      if (c === "}" && braces.length > 0) braces[braces.length - 1]--;
      out += c;
      i++;
      if (!/\s/.test(c)) last = c;
    }
  }
  return out;
}

/** `text` as a regular expression matching itself. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The identifier tagging most templates that start with a tag (`x\`<div>…\``), if any. */
function mostUsedTag(code: string): string | undefined {
  const counts = new Map<string, number>();
  for (const match of code.matchAll(/(?<![.\w$])([\w$]+)`\s*</g)) {
    counts.set(match[1], (counts.get(match[1]) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** The name a file binds htm to (`s=xx.bind(yy)` after htm's code), found by its templates. */
function boundTag(code: string): string | undefined {
  const tag = mostUsedTag(code);
  return tag && new RegExp(`[,;{ ]${escape(tag)}=[\\w$]+\\.bind\\(`).test(code) ? tag : undefined;
}

/**
 * The local name of the bound htm in each file of a code-split bundle: in the
 * file that binds it, that name; in a file importing it from there
 * (`import{j as a}from"./chunk.js"`), the import's local name. Files that
 * neither bind nor import it are left out.
 */
export function htmTags(files: ReadonlyMap<string, string>): Map<string, string> {
  const binding = [...files].flatMap(([name, code]) => {
    const tag = boundTag(code);
    return tag ? [{ name, tag }] : [];
  });
  if (binding.length !== 1) {
    throw new Error(
      `htm must be bound in exactly one file of the bundle (found ${binding.length})`,
    );
  }
  const [{ name: home, tag }] = binding;
  const tags = new Map([[home, tag]]);
  const exports = new RegExp(`export\\{[^}]*?(?<![\\w$])${escape(tag)}(?: as ([\\w$]+))?[,}]`)
    .exec(files.get(home)!);
  if (!exports) return tags;
  const exported = exports[1] ?? tag;
  for (const [name, code] of files) {
    const imports = new RegExp(`import\\{([^}]*)\\}from"\\./${escape(home)}"`).exec(code)?.[1];
    const local = imports?.split(",").map((each) => each.split(" as "))
      .find(([from]) => from === exported);
    if (local) tags.set(name, local[1] ?? local[0]);
  }
  return tags;
}
