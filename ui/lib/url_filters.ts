/**
 * A list page's filters kept in its URL (`activity?user=ada`,
 * `history?error=timeout`), so that a view can be linked: read from the
 * query string and written back, field by field in the page's order.
 *
 * @module
 */

/** The chosen filters of `fields`; absent means any. */
export type UrlFilters<Field extends string> = Partial<Record<Field, string>>;

/**
 * The filters of `fields` a query string names (empty values left out).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { filtersFrom } from "./url_filters.ts";
 * assert.deepEqual(filtersFrom("?user=ada&task=&x=1", ["user", "task"]), { user: "ada" });
 * ```
 */
export function filtersFrom<Field extends string>(
  search: string,
  fields: readonly Field[],
): UrlFilters<Field> {
  const query = new URLSearchParams(search);
  const filters: UrlFilters<Field> = {};
  for (const field of fields) {
    const value = query.get(field);
    if (value) filters[field] = value;
  }
  return filters;
}

/**
 * The query string of the filters, without `?`, in the order of `fields`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { queryOf } from "./url_filters.ts";
 * assert.equal(queryOf({ task: "a b", user: "ada" }, ["user", "task"]), "user=ada&task=a+b");
 * ```
 */
export function queryOf<Field extends string>(
  filters: UrlFilters<Field>,
  fields: readonly Field[],
): string {
  const query = new URLSearchParams();
  for (const field of fields) if (filters[field]) query.set(field, filters[field]!);
  return query.toString();
}
