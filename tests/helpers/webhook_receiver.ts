/**
 * A local HTTP receiver for alert notices, on 127.0.0.1 and a free port.
 *
 * @module
 */

/** One request the receiver got. */
export interface Received {
  headers: Headers;
  body: string;
}

/** A receiver answering with the statuses given, in turn (the last one ever after). */
export function webhookReceiver(statuses: number[] = [200]): {
  received: Received[];
  url: string;
  close: () => Promise<void>;
} {
  const received: Received[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    received.push({ headers: request.headers, body: await request.text() });
    return new Response(null, { status: statuses[Math.min(received.length, statuses.length) - 1] });
  });
  const url = `http://127.0.0.1:${server.addr.port}/hook`;
  return { received, url, close: () => server.shutdown() };
}
