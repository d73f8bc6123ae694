/**
 * The OpenAPI document as plain DOM: an introduction, the operations by
 * tag (each folded to its method, path and summary until opened: its
 * parameters, body and answers), then the named schemas. Text goes in as
 * text nodes only. Loaded with `import()` by the page, so it is a chunk of
 * its own and adds nothing to the first paint.
 *
 * @module
 */
import { constraintsText, schemaText } from "./schema_text.ts";
import type { Content, OpenApiDocument, Operation, Parameter, Schema } from "./types.ts";

const METHODS = ["get", "put", "post", "delete", "patch"];

type Child = Node | string | null | false | undefined;

/** An element with attributes and children (strings become text nodes). */
function el(tag: string, attributes: Record<string, string>, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  for (const child of children) if (child) element.append(child);
  return element;
}

const code = (text: string) => el("code", {}, text);

/** Text whose `backquoted` parts are code, as the document's descriptions write them. */
function prose(text: string | undefined): Child[] {
  return (text ?? "").split("`").map((part, i) => i % 2 === 1 ? code(part) : part);
}

function table(head: string[], rows: Child[][]): HTMLElement {
  return el(
    "div",
    { class: "table-wrap" },
    el(
      "table",
      { class: "table" },
      el("thead", {}, el("tr", {}, ...head.map((name) => el("th", {}, name)))),
      el("tbody", {}, ...rows.map((cells) => el("tr", {}, ...cells.map((c) => el("td", {}, c))))),
    ),
  );
}

function contentList(content: Content | undefined): HTMLElement {
  const entries = Object.entries(content ?? {});
  if (entries.length === 0) return el("span", { class: "muted" }, "no body");
  return el(
    "ul",
    { class: "ref-content" },
    ...entries.map(([type, media]) =>
      el("li", {}, el("span", { class: "muted" }, type), " ", code(schemaText(media.schema)))
    ),
  );
}

function parameterRow(parameter: Parameter): Child[] {
  return [
    el("span", {}, code(parameter.name), parameter.required ? " *" : ""),
    parameter.in,
    code(schemaText(parameter.schema)),
    el(
      "span",
      {},
      ...prose(parameter.description ?? parameter.schema?.description),
      " ",
      el("span", { class: "muted" }, constraintsText(parameter.schema)),
    ),
  ];
}

/** A folded section: its summary line, then its body. */
function fold(summary: Child[], body: Child[], id?: string): HTMLElement {
  return el(
    "details",
    { class: "ref-op", ...id && { id } },
    el("summary", {}, ...summary),
    el("div", { class: "ref-op-body" }, ...body),
  );
}

function operationView(method: string, path: string, operation: Operation): HTMLElement {
  const parameters = operation.parameters ?? [];
  const body = operation.requestBody;
  return fold([
    el("span", { class: `ref-method ref-${method}` }, method.toUpperCase()),
    el("code", { class: "ref-path" }, path),
    el("span", { class: "ref-summary" }, ...prose(operation.summary)),
  ], [
    operation.description && el("p", {}, ...prose(operation.description)),
    parameters.length > 0 && el("h4", {}, "Parameters"),
    parameters.length > 0 &&
    table(["Name", "In", "Type", "Description"], parameters.map(parameterRow)),
    body && el("h4", {}, body.required ? "Body (required)" : "Body"),
    body && contentList(body.content),
    el("h4", {}, "Responses"),
    table(
      ["Status", "Description", "Body"],
      Object.entries(operation.responses).map(([status, response]) => [
        code(status),
        el("span", {}, ...prose(response.description)),
        contentList(response.content),
      ]),
    ),
  ]);
}

function schemaView(name: string, schema: Schema): HTMLElement {
  const fields = Object.entries(schema.properties ?? {});
  return fold(
    [
      el("code", { class: "ref-path" }, name),
      el("span", { class: "ref-summary" }, ...prose(schema.description)),
    ],
    [
      fields.length === 0 ? code(schemaText(schema)) : table(
        ["Field", "Type", "Description"],
        fields.map(([field, type]) => [
          el("span", {}, code(field), schema.required?.includes(field) ? " *" : ""),
          code(schemaText(type)),
          el("span", {}, ...prose(type.description)),
        ]),
      ),
    ],
    `schema-${name}`,
  );
}

function card(title: string, flush: boolean, ...children: Child[]): HTMLElement {
  return el(
    "section",
    { class: "card" },
    el("header", { class: "card-head" }, el("h2", { class: "card-title" }, title)),
    el("div", { class: flush ? "card-body flush" : "card-body" }, ...children),
  );
}

/** The operations of the document by their first tag, in order of appearance. */
export function byTag(document: OpenApiDocument): Map<string, HTMLElement[]> {
  const groups = new Map<string, HTMLElement[]>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? "other";
      groups.set(tag, [...groups.get(tag) ?? [], operationView(method, path, operation)]);
    }
  }
  return groups;
}

/** The whole reference, ready to append. */
export function renderReference(document: OpenApiDocument): DocumentFragment {
  const schemes = Object.values(document.components?.securitySchemes ?? {});
  const fragment = new DocumentFragment();
  fragment.append(
    card(
      `${document.info.title} ${document.info.version}`,
      false,
      ...(document.info.description ?? "").split("\n\n").map((text) => el("p", {}, ...prose(text))),
      el(
        "p",
        { class: "muted" },
        `OpenAPI ${document.openapi}; base URL `,
        code(document.servers?.[0]?.url ?? "/api"),
        ...schemes.flatMap((
          scheme,
        ) => [`; ${scheme.type} in ${scheme.in} `, code(scheme.name ?? "")]),
        ". Fields marked * are required; schemas by name are under Schemas.",
      ),
    ),
    ...[...byTag(document)].map(([tag, operations]) => card(tag, true, ...operations)),
    card(
      "Schemas",
      true,
      ...Object.entries(document.components?.schemas ?? {}).map(([name, schema]) =>
        schemaView(name, schema)
      ),
    ),
  );
  return fragment;
}
