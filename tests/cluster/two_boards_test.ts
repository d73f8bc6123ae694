/**
 * Two board processes behind one load balancer: both started by the CLI
 * with `--redis-cluster` and the same BOARD_COOKIE_SECRET share sessions (a
 * cookie signed by one is accepted by the other); a board with another
 * secret refuses it.
 */

import assert from "node:assert/strict";
import { startBoardProcesses } from "../helpers/board_processes.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { clusterSender, startCluster } from "../helpers/redis_cluster.ts";
import { waitFor } from "../helpers/wait_for.ts";

const LOGIN = { BOARD_USERNAME: "ops", BOARD_PASSWORD: "hunter2-hunter2" };
const SECRET = "one-secret-for-every-board-replica!!";

/** `count` CLI boards on the cluster with one cookie secret, answering. */
function startBoards(count: number, cluster: string, secret: string) {
  return startBoardProcesses({
    count,
    env: { REDIS_CLUSTER: cluster, ...LOGIN, BOARD_COOKIE_SECRET: secret },
  });
}

Deno.test({
  name: "two board processes with one secret share sessions; another secret refuses the cookie",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const cluster = await startCluster();
    const started: Awaited<ReturnType<typeof startBoards>>[] = [];
    try {
      await loadFixture(clusterSender(await cluster.client()));
      const nodes = cluster.rootNodes.map((n) => `${n.host}:${n.port}`).join(",");
      // Each set is stopped in `finally` even when the other failed to start.
      const [sharing, another] = await Promise.all(
        [
          startBoards(2, nodes, SECRET),
          startBoards(1, nodes, "a-different-secret-of-32-characters!"),
        ]
          .map((starting) => starting.then((boards) => (started.push(boards), boards))),
      );
      const [a, b] = sharing.boards.map((board) => ({ ...board, url: `${board.origin}/board` }));
      const other = { url: `${another.boards[0].origin}/board` };
      // Where the data comes from ends the start line.
      await waitFor(() => a.stdout().includes("\n"), { what: "the start line" });
      assert.match(a.stdout(), /; Redis Cluster 127\.0\.0\.1:\d+(,127\.0\.0\.1:\d+)*\)\n/);

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
      await Promise.all(started.map((boards) => boards.stop()));
      await cluster.stop();
    }
  },
});
