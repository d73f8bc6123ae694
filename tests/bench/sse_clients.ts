/**
 * SSE clients for the benchmarks: each opens the board's event stream and
 * reads it to the end, so that the board counts as watched.
 *
 * @module
 */

/** What the clients are opened on: a board's `fetch`. */
export interface Fetching {
  fetch(request: Request): Response | Promise<Response>;
}

/** Opens `count` event streams on `board`; returns how to close them all. */
export async function openSseClients(board: Fetching, count: number): Promise<() => Promise<void>> {
  const readers = await Promise.all(Array.from({ length: count }, async () => {
    const response = await board.fetch(new Request("http://bench/board/api/events"));
    const reader = response.body!.getReader();
    (async () => {
      try {
        while (!(await reader.read()).done) { /* drain */ }
      } catch { /* cancelled */ }
    })();
    return reader;
  }));
  return async () => {
    await Promise.all(readers.map((reader) => reader.cancel().catch(() => {})));
  };
}
