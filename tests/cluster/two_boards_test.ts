/**
 * Two board processes behind one load balancer: both started by the CLI
 * with `--redis-cluster` and the same BOARD_COOKIE_SECRET share sessions (a
 * cookie signed by one is accepted by the other); a board with another
 * secret refuses it.
 */

import assert from "node:assert/strict";
import { boundCommand } from "../helpers/bound_command.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { clusterSender, startCluster } from "../helpers/redis_cluster.ts";

const CLI = new URL("../../src/cli.ts", import.meta.url).pathname;
const LOGIN = { BOARD_USERNAME: "ops", BOARD_PASSWORD: "hunter2-hunter2" };
const SECRET = "one-secret-for-every-board-replica!!";

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** Starts `src/cli.ts` on a free port and waits for its start line. */
async function startBoard(cluster: string, secret: string) {
  const port = freePort();
  const child = boundCommand(Deno.execPath(), {
    args: ["run", "--allow-net", "--allow-env", "--allow-read", CLI, "--port", String(port)],
    env: { REDIS_URL: "", REDIS_CLUSTER: cluster, ...LOGIN, BOARD_COOKIE_SECRET: secret },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let printed = "";
  while (!printed.includes("listening on")) {
    const { value, done } = await lines.read();
    if (done) throw new Error(`the board exited: ${printed}`);
    printed += value;
  }
  return {
    url: `http://127.0.0.1:${port}/board`,
    printed,
    stop: async () => {
      child.kill("SIGTERM");
      await lines.cancel();
      await child.status;
    },
  };
}

Deno.test({
  name: "two board processes with one secret share sessions; another secret refuses the cookie",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const cluster = await startCluster();
    const boards: Awaited<ReturnType<typeof startBoard>>[] = [];
    try {
      await loadFixture(clusterSender(await cluster.client()));
      const nodes = cluster.rootNodes.map((n) => `${n.host}:${n.port}`).join(",");
      const [a, b, other] = await Promise.all([
        startBoard(nodes, SECRET),
        startBoard(nodes, SECRET),
        startBoard(nodes, "a-different-secret-of-32-characters!"),
      ]);
      boards.push(a, b, other);
      // Where the data comes from ends the start line.
      assert.match(a.printed, /; Redis Cluster 127\.0\.0\.1:\d+(,127\.0\.0\.1:\d+)*\)\n/);

      const login = await fetch(`${a.url}/auth/login`, {
        method: "POST",
        redirect: "manual",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: new URL(a.url).origin,
          "sec-fetch-site": "same-origin",
        },
        body: new URLSearchParams({ username: "ops", password: LOGIN.BOARD_PASSWORD }),
      });
      await login.body?.cancel();
      assert.equal(login.status, 303);
      const cookie = login.headers.get("set-cookie")!.split(";")[0];

      const onB = await fetch(`${b.url}/api/overview`, { headers: { cookie } });
      assert.equal(onB.status, 200);
      const overview = await onB.json();
      assert.ok(overview.tasks.some((t: { name: string }) => t.name === "send-email"));

      const onOther = await fetch(`${other.url}/api/overview`, { headers: { cookie } });
      assert.equal(onOther.status, 401);
      assert.equal(await onOther.text(), '{"error":"Unauthorized"}');
    } finally {
      await Promise.all(boards.map((board) => board.stop()));
      await cluster.stop();
    }
  },
});
