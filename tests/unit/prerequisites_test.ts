import assert from "node:assert/strict";
import { type Package, packagesFor, packagesMissing } from "../../scripts/prerequisites.ts";
import { waitFor } from "../helpers/wait_for.ts";

/** `body` with an installer's folder marking `marked` as being installed. */
async function withInstalling(
  marked: readonly Package[],
  body: (dir: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "test-installing-" });
  try {
    for (const name of marked) await Deno.writeTextFile(`${dir}/${name}`, "");
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("packagesMissing() waits while the installer marks a package, then finds it there", async () => {
  await withInstalling(["redis-server", "postgresql"], async (dir) => {
    const installed = new Set<Package>();
    const waitedFor: Package[][] = [];
    let settled = false;
    const missing = packagesMissing(["redis-server"], {
      installing: dir,
      installed: (name) => installed.has(name),
      waiting: (names) => waitedFor.push(names),
      stop: new AbortController().signal,
    }).finally(() => settled = true);
    await waitFor(() => waitedFor.length > 0, { what: "the wait to start" });
    assert.deepEqual(waitedFor[0], ["redis-server"]);
    // postgresql's install says nothing to a part that needs only redis-server.
    await Deno.remove(`${dir}/postgresql`);
    await waitFor(() => waitedFor.length > 1, { what: "the wait to look again" });
    assert.equal(settled, false);

    installed.add("redis-server");
    await Deno.remove(`${dir}/redis-server`);
    assert.deepEqual(await missing, []);
  });
});

Deno.test("packagesMissing() names a package the installer ended without", async () => {
  await withInstalling([], async (dir) => {
    const missing = await packagesMissing(["postgresql", "redis-server"], {
      installing: dir,
      installed: (name) => name === "redis-server",
      stop: new AbortController().signal,
    });
    assert.deepEqual(missing, ["postgresql"]);
  });
});

Deno.test("packagesMissing() without an installer names what is missing at once", async () => {
  const missing = await packagesMissing(["chromium-headless-shell", "fonts-liberation"], {
    installed: (name) => name === "fonts-liberation",
    stop: new AbortController().signal,
  });
  assert.deepEqual(missing, ["chromium-headless-shell"]);
});

Deno.test("packagesMissing() stops waiting when the run stops", async () => {
  await withInstalling(["chromium-headless-shell"], async (dir) => {
    const stop = new AbortController();
    let waiting = false;
    const missing = packagesMissing(["chromium-headless-shell"], {
      installing: dir,
      installed: () => false,
      waiting: () => waiting = true,
      stop: stop.signal,
    });
    await waitFor(() => waiting, { what: "the wait to start" });
    stop.abort();
    assert.deepEqual(await missing, ["chromium-headless-shell"]);
  });
});

Deno.test("packagesFor() is what a part's tests need: none for tests that start no server", () => {
  assert.deepEqual(packagesFor([]), []);
  assert.deepEqual(packagesFor([{ redis: false, postgres: false, browser: false }]), []);
  assert.deepEqual(
    packagesFor([
      { redis: true, postgres: false, browser: false },
      { redis: true, postgres: true, browser: false },
    ]),
    ["redis-server", "postgresql"],
  );
  assert.deepEqual(packagesFor([{ redis: true, postgres: false, browser: true }]), [
    "redis-server",
    "chromium-headless-shell",
    "fonts-liberation",
  ]);
});

Deno.test("packagesMissing() looks at once when the installer's folder is gone", async () => {
  const missing = await packagesMissing(["redis-server"], {
    installing: "/nonexistent/test-installing",
    installed: () => true,
    stop: new AbortController().signal,
  });
  assert.deepEqual(missing, []);
});
