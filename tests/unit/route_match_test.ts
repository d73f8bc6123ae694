import assert from "node:assert/strict";
import { href, matchPath } from "../../ui/lib/router.ts";
import { matchRoute } from "../../ui/pages/registry.ts";

Deno.test("matchRoute() maps each view's path to its page", () => {
  assert.deepEqual(matchRoute("/"), { page: "overview" });
  assert.deepEqual(matchRoute("/tasks"), { page: "tasks" });
  assert.deepEqual(matchRoute("/tasks/send-email"), { page: "task", task: "send-email" });
  assert.deepEqual(matchRoute("/jobs/abc"), { page: "job", id: "abc" });
  assert.deepEqual(matchRoute("/workflows"), { page: "workflows" });
  assert.deepEqual(matchRoute("/workflows/w1"), { page: "workflow", id: "w1" });
  assert.deepEqual(matchRoute("/schedules"), { page: "schedules" });
  assert.deepEqual(matchRoute("/dlq"), { page: "dlq" });
  assert.deepEqual(matchRoute("/migrations"), { page: "migrations" });
});

Deno.test("matchRoute() decodes path parameters, and ignores extra slashes at the ends", () => {
  assert.deepEqual(matchRoute("/tasks/a%20b%2Fc"), { page: "task", task: "a b/c" });
  assert.deepEqual(matchRoute("//tasks/x/"), { page: "task", task: "x" });
});

Deno.test("matchRoute() sends everything else to not-found", () => {
  for (
    const path of [
      "/nope",
      "/jobs",
      "/tasks/a/b",
      "/dlq/x",
      "/jobs/%E0%A4%A",
      "/overview/x",
      "/x/y",
      "/overview",
      "/not-found",
      "/tasks//x",
      "/schedules/x",
      "/migrations/x",
      "/:task",
    ]
  ) {
    assert.deepEqual(matchRoute(path), { page: "not-found" }, path);
  }
});

Deno.test("href() encodes each segment, so any id round-trips through matchRoute()", () => {
  const id = "weird id/with?#%";
  assert.equal(href("jobs", id), "jobs/weird%20id%2Fwith%3F%23%25");
  assert.deepEqual(matchRoute(`/${href("jobs", id)}`), { page: "job", id });
});

Deno.test("matchPath() gives a pattern's decoded parameters, or null for any other path", () => {
  assert.deepEqual(matchPath("/", "/"), {});
  assert.deepEqual(matchPath("/tasks/:task", "/tasks/a%20b"), { task: "a b" });
  assert.deepEqual(matchPath("/a/:x/b/:y", "a/1/b/2/"), { x: "1", y: "2" });
  for (const path of ["/", "/tasks", "/task/x", "/tasks/x/y", "/tasks/%E0%A4%A", "/tasks//"]) {
    assert.equal(matchPath("/tasks/:task", path), null, path);
  }
});
