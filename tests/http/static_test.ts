import assert from "node:assert/strict";
import { Hono } from "hono";
import { serveUi, type ServeUiOptions } from "../../src/static.ts";
import { assets } from "../../ui/dist/assets.ts";
import { firstPaintAssets } from "../../scripts/first_paint.ts";

/** The board's shape: API routes first, then the UI sub-app at the base path. */
function board(options: Partial<ServeUiOptions> = {}): Hono {
  const basePath = options.basePath ?? "/board";
  const prefix = basePath.replace(/\/+$/, "");
  const app = new Hono();
  app.get(`${prefix}/api/config`, (c) => c.json({ title: "Queues" }));
  app.route(basePath, serveUi({ basePath, title: "Queues", ...options }));
  return app;
}

const assetName = (prefix: string) => {
  const name = Object.keys(assets).find((n) => n.startsWith(prefix));
  assert.ok(name, `no ${prefix} asset built`);
  return name;
};

const fromBase64 = (b64: string) => Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));

Deno.test("serveUi() serves index.html for the base path and any SPA route", async () => {
  const app = board();
  for (const path of ["/board", "/board/", "/board/tasks/x", "/board/tasks/emails.send/jobs/42"]) {
    const res = await app.request(path);
    assert.equal(res.status, 200, path);
    assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8");
    assert.equal(res.headers.get("cache-control"), "no-cache");
    const body = await res.text();
    assert.match(body, /<div id="app"><\/div>/);
    assert.doesNotMatch(body, /%QB_/);
  }
});

Deno.test("serveUi() wires the hashed assets into index.html", async () => {
  const body = await (await board().request("/board/")).text();
  assert.ok(body.includes(`src="assets/${assetName("app.")}"`));
  assert.ok(body.includes(`href="assets/${assetName("styles.")}"`));
  assert.ok(body.includes(`href="assets/${assetName("favicon.")}"`));
  assert.match(assetName("app."), /^app\.[0-9a-f]{8}\.js$/);
});

Deno.test("serveUi() injects the base path and title, HTML-escaped", async () => {
  const plain = await (await board().request("/board/tasks/x")).text();
  assert.ok(plain.includes('<base href="/board/">'));
  assert.ok(plain.includes('<meta name="queue-board-base" content="/board/">'));
  assert.ok(plain.includes("<title>Queues</title>"));

  const app = board({
    basePath: '/b"><script>x</script>',
    title: `</title><script>alert("t")</script>&'`,
    favicon: 'https://cdn.example/i.png"onload="x',
  });
  const res = await app.request('/b"><script>x</script>/');
  assert.equal(res.status, 200);
  const body = await res.text();
  assert.ok(!body.includes("<script>"), "nothing injected may open a tag");
  assert.ok(body.includes('<base href="/b&#34;&#62;&#60;script&#62;x&#60;/script&#62;/">'));
  assert.ok(
    body.includes(
      "<title>&#60;/title&#62;&#60;script&#62;alert(&#34;t&#34;)&#60;/script&#62;&#38;&#39;</title>",
    ),
  );
  assert.ok(body.includes('href="https://cdn.example/i.png&#34;onload=&#34;x"'));
});

Deno.test("serveUi() normalizes the base path (trailing slash, root)", async () => {
  const slash = await (await board({ basePath: "/board/" }).request("/board/x")).text();
  assert.ok(slash.includes('<base href="/board/">'));
  const root = board({ basePath: "/" });
  const res = await root.request("/tasks/x");
  assert.equal(res.status, 200);
  assert.ok((await res.text()).includes('<base href="/">'));
  assert.equal((await root.request(`/assets/${assetName("app.")}`)).status, 200);
});

Deno.test("serveUi() serves hashed assets as immutable with an ETag", async () => {
  const name = assetName("app.");
  const res = await board().request(`/board/assets/${name}`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "public, max-age=31536000, immutable");
  assert.equal(res.headers.get("content-type"), "text/javascript; charset=utf-8");
  assert.equal(res.headers.get("etag"), assets[name].etag);
  assert.equal(res.headers.get("content-encoding"), null);
  assert.equal(res.headers.get("vary"), "Accept-Encoding");
  assert.deepEqual(new Uint8Array(await res.arrayBuffer()), fromBase64(assets[name].body));

  const css = await board().request(`/board/assets/${assetName("styles.")}`);
  assert.equal(css.headers.get("content-type"), "text/css; charset=utf-8");
  await css.body?.cancel();
});

Deno.test("serveUi() answers 304 when If-None-Match matches", async () => {
  const name = assetName("app.");
  const res = await board().request(`/board/assets/${name}`, {
    headers: { "if-none-match": `W/"nope", ${assets[name].etag}` },
  });
  assert.equal(res.status, 304);
  assert.equal(await res.text(), "");

  const index = await board().request("/board/");
  const etag = index.headers.get("etag");
  assert.ok(etag);
  await index.body?.cancel();
  const again = await board().request("/board/", { headers: { "if-none-match": etag } });
  assert.equal(again.status, 304);
});

Deno.test("serveUi() sends the precompressed gzip body when accepted", async () => {
  const name = assetName("app.");
  const res = await board().request(`/board/assets/${name}`, {
    headers: { "accept-encoding": "br, gzip, deflate" },
  });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-encoding"), "gzip");
  assert.equal(res.headers.get("vary"), "Accept-Encoding");
  assert.notEqual(res.headers.get("etag"), assets[name].etag, "each encoding has its own ETag");
  const gz = new Uint8Array(await res.arrayBuffer());
  assert.deepEqual(gz, fromBase64(assets[name].gzip!));
  const plain = await new Response(
    new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip")),
  ).arrayBuffer();
  assert.deepEqual(new Uint8Array(plain), fromBase64(assets[name].body));

  const refused = await board().request(`/board/assets/${name}`, {
    headers: { "accept-encoding": "gzip;q=0, identity" },
  });
  assert.equal(refused.headers.get("content-encoding"), null);
  await refused.body?.cancel();
});

Deno.test("serveUi() answers 404 for unknown assets and traversal attempts", async () => {
  const app = board();
  for (
    const path of [
      "/board/assets/app.00000000.js",
      "/board/assets/app.js",
      "/board/assets/",
      "/board/assets/__proto__",
      "/board/assets/constructor",
      "/board/assets/a/b",
      "/board/assets/..%2fdeno.json",
      "/board/assets/%2e%2e%2fdeno.json",
      "/board/assets/%2e%2e/deno.json",
      "/board/assets/../deno.json",
      "/board/assets/..%5cdeno.json",
      `/board/assets/x%2f${assetName("app.")}`,
      "/board/favicon.ico",
    ]
  ) {
    const res = await app.request(path);
    assert.equal(res.status, 404, path);
    assert.equal(res.headers.get("cache-control"), "no-cache", path);
    await res.body?.cancel();
  }
});

Deno.test("serveUi() refuses raw dot segments that reach the server", async () => {
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, board().fetch);
  try {
    for (const target of ["/board/assets/../deno.json", "/board/assets/%2e%2e/%2e%2e/deno.json"]) {
      const conn = await Deno.connect({ port: server.addr.port, hostname: "127.0.0.1" });
      await conn.write(
        new TextEncoder().encode(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
      );
      const head = new TextDecoder().decode(await new Response(conn.readable).bytes())
        .split("\r\n")[0];
      assert.equal(head, "HTTP/1.1 404 Not Found", target);
    }
  } finally {
    await server.shutdown();
  }
});

Deno.test("serveUi() leaves /api paths and other methods to the parent app", async () => {
  const app = board();
  assert.equal((await app.request("/board/api/config")).status, 200);
  const missing = await app.request("/board/api/nope");
  assert.equal(missing.status, 404);
  assert.doesNotMatch(await missing.text(), /<html/);
  assert.equal((await app.request("/board/", { method: "POST" })).status, 404);
  assert.equal((await app.request("/board/tasks", { method: "DELETE" })).status, 404);
});

Deno.test("serveUi() answers HEAD like GET, without a body", async () => {
  const res = await board().request(`/board/assets/${assetName("app.")}`, { method: "HEAD" });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "public, max-age=31536000, immutable");
  assert.equal(await res.text(), "");
  const index = await board().request("/board/tasks", { method: "HEAD" });
  assert.equal(index.status, 200);
  assert.equal(await index.text(), "");
});

Deno.test("scripts/build_ui.ts --check passes on the committed build", async () => {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "scripts/build_ui.ts", "--check"],
    cwd: new URL("../../", import.meta.url),
    stdout: "piped",
    stderr: "piped",
  }).output();
  const out = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  assert.equal(code, 0, out);
  assert.match(out, /up to date/);
});

/**
 * The size each JS and CSS asset is served at, by name: gzipped, or as is
 * for a chunk too small for gzip to pay (the build keeps no variant then).
 */
function gzippedSizes(): (readonly [string, number])[] {
  return Object.entries(assets)
    .filter(([name]) => /\.(js|css)$/.test(name))
    .map(([name, asset]) => {
      const body = fromBase64(asset.body);
      if (body.length > 1024) assert.ok(asset.gzip, `${name} is served without a gzip variant`);
      return [name, asset.gzip ? fromBase64(asset.gzip).length : body.length] as const;
    });
}

function assertUnder(parts: (readonly [string, number])[], budgetKb: number): void {
  const total = parts.reduce((sum, [, size]) => sum + size, 0);
  assert.ok(
    total < budgetKb * 1024,
    `${(total / 1024).toFixed(1)} KB: ${
      parts.map(([name, size]) => `${name} ${size} B`).join(", ")
    }`,
  );
}

/** The assets the first paint fetches, by name. */
function firstPaint(): Set<string> {
  const texts = new Map(
    Object.entries(assets)
      .filter(([name]) => /\.(js|css)$/.test(name))
      .map(([name, asset]) => [name, new TextDecoder().decode(fromBase64(asset.body))]),
  );
  return new Set(firstPaintAssets(texts));
}

Deno.test("what the first paint needs (entry, its static imports, CSS) is under 46.5 KB gzipped", () => {
  const needed = firstPaint();
  assert.ok(needed.size > 2, "the entry imports the shared chunk statically");
  assertUnder(gzippedSizes().filter(([name]) => needed.has(name)), 46.5);
});

Deno.test("uPlot's stylesheet is outside the first paint, linked by its hashed name from a chunk", () => {
  const names = Object.keys(assets);
  const stylesheet = names.find((name) => /^uPlot\.[0-9a-f]{8}\.css$/.test(name));
  assert.ok(stylesheet, "uPlot's stylesheet is an asset of its own");
  assert.ok(!firstPaint().has(stylesheet), "the first paint does not fetch it");
  const texts = names.filter((name) => name.endsWith(".js"))
    .map((name) => new TextDecoder().decode(fromBase64(assets[name].body)));
  assert.equal(texts.filter((text) => text.includes(`"assets/${stylesheet}"`)).length, 1);
  assert.ok(!texts.some((text) => text.includes('"assets/uPlot.css"')), "no unhashed name left");
});

Deno.test("every page but the landing ones is a lazy chunk, outside the first paint", () => {
  const needed = firstPaint();
  const names = Object.keys(assets);
  for (
    const page of [
      "job",
      "task",
      "schedules",
      "dlq",
      "workflow",
      "workflows",
      "migrations",
      "activity",
      "alerts",
    ]
  ) {
    const chunk = names.find((name) => name.startsWith(`${page}.`));
    assert.ok(chunk, `${page} is its own chunk`);
    assert.ok(!needed.has(chunk), `${chunk} is not fetched for the first paint`);
  }
});

Deno.test("the whole UI, every JS chunk and the CSS, is under 142.5 KB gzipped", () => {
  assertUnder(gzippedSizes(), 142.5);
});
