/**
 * Who may import whom, read from Deno's own module graph (`deno info`,
 * type-only imports included): the contract sits below the routes and the
 * event layer, the event layer never reaches back into the routes, no
 * room imports the routes (only the composition root builds them), the
 * two ports' adapters meet only where a source pairs its store, and the UI
 * reaches no server code but the contract.
 */

import assert from "node:assert/strict";
import { relative } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";

const ROOT = fromFileUrl(new URL("../../", import.meta.url));

/** Local module (path from the project root) → the local modules it imports, code or type. */
type Graph = Map<string, string[]>;

interface InfoModule {
  specifier: string;
  dependencies?: { code?: { specifier: string }; type?: { specifier: string } }[];
}

/** The local part of the module graph of `entry`, as `deno info --json` resolves it. */
async function graphOf(entry: string): Promise<Graph> {
  const { success, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: ROOT,
  }).output();
  assert.ok(success, new TextDecoder().decode(stderr));
  const { modules } = JSON.parse(new TextDecoder().decode(stdout)) as { modules: InfoModule[] };
  const local = (specifier: string) =>
    specifier.startsWith("file:") ? relative(ROOT, fromFileUrl(specifier)) : null;
  const graph: Graph = new Map();
  for (const module of modules) {
    const from = local(module.specifier);
    if (from === null) continue;
    const imports = (module.dependencies ?? []).flatMap((dependency) =>
      [dependency.code?.specifier, dependency.type?.specifier]
        .map((specifier) => specifier === undefined ? null : local(specifier))
        .filter((path) => path !== null)
    );
    graph.set(from, [...new Set(imports)]);
  }
  return graph;
}

/** Every module `start` reaches, itself included (an explicit stack: no recursion). */
function reach(graph: Graph, start: string): Set<string> {
  const seen = new Set<string>();
  const stack = [start];
  while (stack.length > 0) {
    const path = stack.pop()!;
    if (seen.has(path)) continue;
    seen.add(path);
    stack.push(...graph.get(path) ?? []);
  }
  return seen;
}

/** `from → to` for every import of a module under `from` of one under `to`. */
function edges(graph: Graph, from: string, to: string): string[] {
  return [...graph].flatMap(([path, imports]) =>
    path.startsWith(from)
      ? imports.filter((i) => i.startsWith(to)).map((i) => `${path} → ${i}`)
      : []
  );
}

const server = await graphOf("mod.ts");
const ui = await graphOf("ui/main.ts");

Deno.test("the contract imports nothing but itself", () => {
  assert.deepEqual(
    edges(server, "src/contract/", "").filter((edge) => !/→ src\/contract\//.test(edge)),
    [],
  );
  for (const path of server.keys()) {
    if (!path.startsWith("src/contract/")) continue;
    const reached = [...reach(server, path)].filter((p) => /^src\/(api|events|source)\//.test(p));
    assert.deepEqual(reached, [], `${path} reaches no route, event or source module`);
  }
});

Deno.test("the event layer never reaches the routes; the routes take only the hub from it", () => {
  for (const path of server.keys()) {
    if (!path.startsWith("src/events/")) continue;
    const routes = [...reach(server, path)].filter((p) => p.startsWith("src/api/"));
    assert.deepEqual(routes, [], `${path} reaches no route: no circle between api/ and events/`);
  }
  assert.deepEqual(edges(server, "src/api/", "src/events/"), [
    "src/api/deps.ts → src/events/hub.ts",
    "src/api/events.ts → src/events/hub.ts",
    "src/api/events.ts → src/events/sse.ts",
  ]);
});

Deno.test("nothing but the composition root imports the routes: every room sits below them", () => {
  const inRoot = (path: string) => path === "src/board.ts" || path.startsWith("src/board/");
  // The root builds the API (`createApi`) from what the routes are given (`ApiDeps`); a
  // middleware or a helper it mounts is a room's, not the routes'.
  const kit = / → src\/api\/(mod|deps)\.ts$/;
  const intoRoutes = edges(server, "", "src/api/").filter((edge) => !edge.startsWith("src/api/"));
  assert.deepEqual(
    intoRoutes.filter((edge) => !inRoot(edge.split(" → ")[0]) || !kit.test(edge)),
    [],
  );
});

Deno.test("only createBoard reaches the composition root: no room climbs back up to it", () => {
  const inRoot = (path: string) => path === "src/board.ts" || path.startsWith("src/board/");
  const intoRoot = edges(server, "", "src/board/");
  assert.ok(intoRoot.length > 0, "createBoard composes the board from src/board/");
  assert.deepEqual(intoRoot.filter((edge) => !inRoot(edge.split(" → ")[0])), []);
  assert.deepEqual(edges(server, "", "src/board.ts"), ["mod.ts → src/board.ts"]);
});

Deno.test("a source reaches a store adapter only where its facade pairs the two", () => {
  const adapters = edges(server, "src/source/", "src/store/")
    .filter((edge) => /→ src\/store\/[^/]+\//.test(edge));
  assert.deepEqual(adapters.sort(), [
    "src/source/memory/source.ts → src/store/memory/mod.ts",
    "src/source/redis/mod.ts → src/store/redis/mod.ts",
  ]);
});

Deno.test("a store adapter takes from the source side only the connection, the keys and the port's types", () => {
  const allowed = /→ src\/source\/(redis\/(client|topology|scripts|jobs)|wire\/keys|types)\.ts$/;
  const edgesIn = edges(server, "src/store/", "src/source/");
  assert.ok(edgesIn.length > 0, "the Redis store goes through the Redis connection");
  assert.deepEqual(edgesIn.filter((edge) => !allowed.test(edge)), []);
});

Deno.test("the UI reaches no server code but the contract", () => {
  const server = [...reach(ui, "ui/main.ts")].filter((path) => path.startsWith("src/"));
  assert.ok(server.length > 0, "the UI reads the contract");
  assert.deepEqual(server.filter((path) => !path.startsWith("src/contract/")), []);
  assert.ok(!server.includes("src/contract/present.ts"), "the presenter stays on the server");
});
