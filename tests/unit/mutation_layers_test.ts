/**
 * Layers for mutations only (`mutationsOnly`), consecutive and on the same
 * paths, run as one step: a read passes it without running any of them, a
 * mutation runs each in order around the rest of the app, and one that
 * refuses, by its answer or by throwing, stops the ones after it and the
 * route, its refusal the answer the layers before it see (as when each ran
 * as a step of its own).
 */

import assert from "node:assert/strict";
import { Hono, type MiddlewareHandler } from "hono";
import { composeApp } from "../../src/board/stack.ts";

Deno.test("consecutive layers for mutations only: a read passes them at once, a mutation runs each in order", async () => {
  const ran: string[] = [];
  const layer = (name: string): MiddlewareHandler => async (c, next) => {
    ran.push(`${name} ${c.req.method}`);
    await next();
    ran.push(`${name} after`);
  };
  const seen: number[] = [];
  const first: MiddlewareHandler = async (c, next) => {
    await layer("first")(c, next);
    seen.push(c.res.status);
  };
  const refusing: MiddlewareHandler = async (c, next) => {
    if (c.req.header("x-refuse") === "answer") return c.text("refused", 409);
    if (c.req.header("x-refuse") === "throw") throw new Error("thrown");
    await next();
  };
  const app = composeApp({
    onError: (error, c) => c.text(error.message, 422),
    layers: [
      { name: "every request", use: layer("every") },
      { name: "first", use: first, mutationsOnly: true },
      { name: "refusing", use: refusing, mutationsOnly: true },
      { name: "second", use: layer("second"), mutationsOnly: true },
      {
        name: "routes",
        at: "/",
        mount: new Hono().get("/jobs", (c) => c.text("jobs")).post("/jobs", (c) => c.text("made")),
      },
    ],
  });

  const read = await app.request("/jobs");
  assert.equal(await read.text(), "jobs");
  assert.deepEqual(ran, ["every GET", "every after"], "a read runs no layer for mutations");

  ran.length = 0;
  const made = await app.request("/jobs", { method: "POST" });
  assert.equal(await made.text(), "made");
  assert.deepEqual(ran, [
    "every POST",
    "first POST",
    "second POST",
    "second after",
    "first after",
    "every after",
  ]);

  for (const [refuse, status] of [["answer", 409], ["throw", 422]] as const) {
    ran.length = 0;
    const refused = await app.request("/jobs", { method: "POST", headers: { "x-refuse": refuse } });
    assert.equal(refused.status, status);
    assert.deepEqual(ran, ["every POST", "first POST", "first after", "every after"]);
  }
  assert.deepEqual(seen, [200, 409, 422], "the layer before the refusal sees its answer");
});
