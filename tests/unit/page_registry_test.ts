import assert from "node:assert/strict";
import { href, segmentsOf } from "../../ui/lib/router.ts";
import { matchRoute, NAV, navEntryFor, type PageName, PAGES } from "../../ui/pages/registry.ts";

const NAMES = Object.keys(PAGES) as PageName[];

/** The parameters of `pattern`, each set to `value`. */
function paramsOf(pattern: string, value: string): Record<string, string> {
  return Object.fromEntries(
    segmentsOf(pattern).filter((part) => part.startsWith(":")).map((
      part,
    ) => [part.slice(1), value]),
  );
}

/** A path of `pattern` with its parameters filled from `params`, encoded as a link would be. */
function pathOf(pattern: string, params: Record<string, string>): string {
  const segments = segmentsOf(pattern).map((part) =>
    part.startsWith(":") ? params[part.slice(1)] : part
  );
  return `/${href(...segments)}`;
}

Deno.test("the sidebar lists Overview to the API reference, keys 1–6 opening the first six", () => {
  assert.deepEqual(NAV.map(({ label, path, key }) => [label, path, key]), [
    ["Overview", "/", "1"],
    ["Tasks", "/tasks", "2"],
    ["Workflows", "/workflows", "3"],
    ["Schedules", "/schedules", "4"],
    ["DLQ", "/dlq", "5"],
    ["Alerts", "/alerts", "6"],
    ["History", "/history", undefined],
    ["Migrations", "/migrations", undefined],
    ["Activity", "/activity", undefined],
    ["API", "/reference", undefined],
  ]);
});

Deno.test("every shortcut is a digit from 1 to 6, on one sidebar link only", () => {
  const keys = NAV.flatMap(({ key }) => key === undefined ? [] : [key]);
  assert.ok(keys.length > 0);
  for (const key of keys) assert.match(key, /^[1-6]$/);
  assert.equal(new Set(keys).size, keys.length, `a key opens two pages: ${keys}`);
});

Deno.test("every page's path round-trips through href() and matchRoute(), whatever its parameters", () => {
  for (const value of ["x", "a b/c?#%", "ünï 😀", "..", ":id", "-"]) {
    for (const page of NAMES) {
      const params = paramsOf(PAGES[page].path, value);
      const path = pathOf(PAGES[page].path, params);
      assert.deepEqual(matchRoute(path), { page, ...params }, path);
    }
  }
});

Deno.test("a page's path with a segment too many, a bad parameter or another case is not found", () => {
  for (const page of NAMES) {
    const { path } = PAGES[page];
    const longer = `${pathOf(path, paramsOf(path, "x"))}/x/y`;
    assert.deepEqual(matchRoute(longer), { page: "not-found" }, longer);
    if (path.includes(":")) {
      const undecodable = `/${
        segmentsOf(path).map((part) => part.startsWith(":") ? "%E0%A4%A" : part).join("/")
      }`;
      assert.deepEqual(matchRoute(undecodable), { page: "not-found" }, undecodable);
    }
    if (path !== "/") {
      const shouted = path.toUpperCase();
      assert.deepEqual(matchRoute(shouted), { page: "not-found" }, shouted);
    }
  }
});

Deno.test("a path marks its section's link: jobs under Tasks, unknown paths Overview", () => {
  const marked = (path: string) => navEntryFor(path).label;
  assert.equal(marked("/"), "Overview");
  assert.equal(marked("/tasks"), "Tasks");
  assert.equal(marked("/tasks/send-email"), "Tasks");
  assert.equal(marked("/jobs/abc"), "Tasks");
  assert.equal(marked("/workflows/w1"), "Workflows");
  assert.equal(marked("/schedules"), "Schedules");
  assert.equal(marked("/dlq"), "DLQ");
  assert.equal(marked("/alerts"), "Alerts");
  assert.equal(marked("/dlq/x"), "DLQ", "a mistyped DLQ path stays in its section");
  assert.equal(marked("/migrations"), "Migrations");
  assert.equal(marked("/nope"), "Overview");
});

Deno.test("every page outside the sidebar marks a link of its own section, or the one it is under", () => {
  const inSidebar = new Set(NAV.map((entry) => entry.page));
  for (const page of NAMES.filter((name) => !inSidebar.has(name))) {
    const { path, under } = PAGES[page];
    const marked = navEntryFor(pathOf(path, paramsOf(path, "x")));
    if (under) assert.equal(marked.page, under, page);
    else {assert.equal(
        segmentsOf(marked.path)[0],
        segmentsOf(path)[0],
        `${page} marks ${marked.label}`,
      );}
  }
});
