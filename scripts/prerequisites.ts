/**
 * The system packages a part of the test run needs, and the wait for them
 * while CI installs them. On a fresh machine apt installs redis-server,
 * PostgreSQL and the headless Chromium while the run starts: the type check,
 * the fast group and the JSDoc examples need none of them, and each group
 * starts as soon as its own are there (the redis group, the longest, once
 * redis-server is) instead of every part waiting for the whole install.
 *
 * The installer (`.ci/run`) says what it is installing with a folder, named
 * by `TEST_INSTALLING`, holding an empty file per package it has still to
 * install, each removed when its install ends (installed or not).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { packagesMissing } from "./prerequisites.ts";
 *
 * const missing = await packagesMissing(["redis-server"], {
 *   installed: () => false,
 *   stop: new AbortController().signal,
 * });
 * assert.deepEqual(missing, ["redis-server"]);
 * ```
 *
 * @module
 */

/** Whether an executable named `name` is on the `PATH`. */
function onPath(name: string): boolean {
  return (Deno.env.get("PATH") ?? "").split(":").some((dir) => {
    try {
      const { isFile, mode } = Deno.statSync(`${dir}/${name}`);
      return isFile && ((mode ?? 0) & 0o111) !== 0;
    } catch {
      return false;
    }
  });
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Each package, and where the tests' helpers look for it. */
const INSTALLED = {
  // tests/helpers/redis_server.ts
  "redis-server": () => onPath("redis-server"),
  // tests/helpers/postgres_server.ts: Debian's binaries of any version.
  postgresql: () => {
    try {
      return [...Deno.readDirSync("/usr/lib/postgresql")]
        .some(({ name }) => exists(`/usr/lib/postgresql/${name}/bin/postgres`));
    } catch {
      return false;
    }
  },
  // tests/e2e/browser.ts
  "chromium-headless-shell": () => exists("/usr/bin/chromium-headless-shell"),
  // The layout tests measure text in it.
  "fonts-liberation": () => exists("/usr/share/fonts/truetype/liberation"),
} as const;

/** A Debian package the tests need. */
export type Package = keyof typeof INSTALLED;

/** What a test file's imports say it starts (see `scripts/test.ts`). */
export interface ServerNeeds {
  redis: boolean;
  postgres: boolean;
  browser: boolean;
}

/** The packages that meet each need. */
const PACKAGES: Record<keyof ServerNeeds, readonly Package[]> = {
  redis: ["redis-server"],
  postgres: ["postgresql"],
  browser: ["chromium-headless-shell", "fonts-liberation"],
};

/** The packages the tests with `needs` need, in the order `.ci/run` installs them. */
export function packagesFor(needs: readonly ServerNeeds[]): Package[] {
  return (["redis", "postgres", "browser"] as const)
    .filter((need) => needs.some((each) => each[need]))
    .flatMap((need) => PACKAGES[need]);
}

/** Options of {@link packagesMissing}. */
export interface MissingOptions {
  /** The installer's folder (`TEST_INSTALLING`): while it marks a package, the package is awaited. */
  installing?: string;
  /** Whether a package is installed (by default, where the tests look for it). */
  installed?: (name: Package) => boolean;
  /** Told the packages still being installed, each time it looks and waits on. */
  waiting?: (names: Package[]) => void;
  /** Ends the wait: the run is stopping. */
  stop: AbortSignal;
}

/** Those of `names` the installer in `dir` still marks. */
function marked(dir: string, names: readonly Package[]): Package[] {
  return names.filter((name) => exists(`${dir}/${name}`));
}

/** Waits, by the folder's own changes, until `dir` marks none of `names` or `stop` aborts. */
async function whileMarked(
  dir: string,
  names: readonly Package[],
  waiting: (names: Package[]) => void,
  stop: AbortSignal,
): Promise<void> {
  if (stop.aborted) return;
  let watcher: Deno.FsWatcher;
  try {
    watcher = Deno.watchFs(dir, { recursive: false });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return; // the installer is done and gone
    throw error;
  }
  const close = () => watcher.close();
  stop.addEventListener("abort", close, { once: true });
  try {
    // Looked at once the watcher runs, so that a removal in between is not missed.
    for (let left = marked(dir, names); left.length > 0; left = marked(dir, names)) {
      waiting(left);
      if ((await watcher[Symbol.asyncIterator]().next()).done) return;
    }
  } finally {
    stop.removeEventListener("abort", close);
    if (!stop.aborted) watcher.close();
  }
}

/**
 * Those of `names` not installed once the installer is done with them: it
 * waits while the installer (`installing`) marks any of them, then looks.
 */
export async function packagesMissing(
  names: readonly Package[],
  { installing, installed = (name) => INSTALLED[name](), waiting = () => {}, stop }: MissingOptions,
): Promise<Package[]> {
  if (installing) await whileMarked(installing, names, waiting, stop);
  return names.filter((name) => !installed(name));
}
