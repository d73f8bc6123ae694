/**
 * `board.listen` closes connections that hold a slot without sending a
 * request: headers never finished (or dripped a byte at a time) within
 * `headersTimeout`, and keep-alive connections idle for `idleTimeout`.
 * Raw TCP sockets send half a request; the timeouts are shortened here, so
 * nothing waits the real 15 s.
 */

import assert from "node:assert/strict";
import { createBoard } from "../../mod.ts";
import { type BoardOptions, BoardOptionsError } from "../../src/options.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { openRaw, type RawConnection } from "../helpers/raw_http.ts";

const SHORT = { headersTimeout: 200, idleTimeout: 200 };

/**
 * What the server sent before it closed the connection; fails, instead of
 * hanging, if it is still open long after the timeouts (a server without them).
 */
async function closedByServer(raw: RawConnection): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stillOpen = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      raw.close();
      reject(new Error("the server left the connection open"));
    }, 25 * SHORT.headersTimeout);
  });
  try {
    return await Promise.race([raw.closed, stillOpen]);
  } finally {
    clearTimeout(timer);
  }
}

async function listening(
  options: Parameters<ReturnType<typeof createBoard>["listen"]>[0],
  boardOptions: BoardOptions = {},
) {
  const source = createMemorySource();
  const board = createBoard(source, boardOptions);
  const log = console.log;
  console.log = () => {};
  try {
    const server = await board.listen(options);
    return {
      port: server.addr.port,
      async stop() {
        await server.shutdown();
        await board.close();
        await source.close();
      },
    };
  } finally {
    console.log = log;
  }
}

Deno.test("a connection that never finishes its headers is closed after headersTimeout (408)", async () => {
  const { port, stop } = await listening({ port: 0, hostname: "127.0.0.1", ...SHORT });
  try {
    const raw = await openRaw(port);
    await raw.send("GET /board/api/config HTTP/1.1\r\nHost: localhost\r\n");
    assert.match(await closedByServer(raw), /^HTTP\/1\.1 408 /);
  } finally {
    await stop();
  }
});

Deno.test("headers dripped a byte at a time do not keep the connection open", async () => {
  const { port, stop } = await listening({ port: 0, hostname: "127.0.0.1", ...SHORT });
  try {
    const raw = await openRaw(port);
    const closed = closedByServer(raw);
    let open = true;
    closed.finally(() => open = false).catch(() => {});
    await raw.send("GET /board/api/config HTTP/1.1\r\nHost: localhost\r\nX-Slow: ");
    // Each byte comes well within the timeout; the headers as a whole never do.
    while (open) {
      await raw.send("a").catch(() => open = false);
      await new Promise((resolve) => setTimeout(resolve, SHORT.headersTimeout / 4));
    }
    assert.match(await closed, /^HTTP\/1\.1 408 /);
  } finally {
    await stop();
  }
});

Deno.test("an idle keep-alive connection is closed after idleTimeout", async () => {
  const { port, stop } = await listening({ port: 0, hostname: "127.0.0.1", ...SHORT });
  try {
    const raw = await openRaw(port);
    await raw.send("GET /board/api/config HTTP/1.1\r\nHost: localhost\r\n\r\n");
    const answer = await closedByServer(raw);
    assert.match(answer, /^HTTP\/1\.1 200 /);
    assert.match(answer, /"readOnly":false/, "the whole answer came before the close");
  } finally {
    await stop();
  }
});

Deno.test("a long answer (the event stream) is not cut by the timeouts, and its client's leaving is seen", async () => {
  const { port, stop } = await listening(
    { port: 0, hostname: "127.0.0.1", ...SHORT },
    { statsInterval: 500 },
  );
  try {
    const clients = async () => {
      const text = await (await fetch(`http://127.0.0.1:${port}/board/metrics`)).text();
      return /^queue_board_sse_clients (\d+)$/m.exec(text)?.[1];
    };
    const stream = await fetch(`http://127.0.0.1:${port}/board/api/events`);
    assert.equal(stream.status, 200);
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let frames = 0;
    // Three stats frames, 500 ms apart: far longer than either timeout.
    while (frames < 3) {
      frames += ((await reader.read()).value ?? "").split("event: stats:update").length - 1;
    }
    assert.equal(await clients(), "1");
    await reader.cancel();
    while (await clients() !== "0") await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    await stop();
  }
});

Deno.test("a bad timeout throws naming it", async () => {
  const board = createBoard(createMemorySource());
  for (const value of [0, -1, 1.5, 600_001, "15s"]) {
    for (const option of ["headersTimeout", "idleTimeout"]) {
      await assert.rejects(
        () => board.listen({ port: 0, hostname: "127.0.0.1", [option]: value }),
        (e: Error) => e instanceof BoardOptionsError && e.message.includes(`"listen.${option}"`),
        `${option} ${value}`,
      );
    }
  }
  await board.close();
});
