/**
 * A local HTTP receiver for alert notices, on 127.0.0.1 and a free port.
 *
 * @module
 */

/** One request the receiver got. */
export interface Received {
  headers: Headers;
  body: string;
  /** The sender's port: which process sent it (`socket_owner.ts`). */
  senderPort: number;
}

/**
 * A receiver answering with the statuses given, in turn (the last one ever
 * after); each answer, once its request is received, waits for `answerWhen`
 * (a test holds the answers while its fake clocks move: a post's timeout is
 * on them).
 */
export function webhookReceiver(
  statuses: number[] = [200],
  answerWhen: () => Promise<void> = () => Promise.resolve(),
): {
  received: Received[];
  url: string;
  close: () => Promise<void>;
} {
  const received: Received[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (request, info) => {
      const senderPort = (info.remoteAddr as Deno.NetAddr).port;
      received.push({ headers: request.headers, body: await request.text(), senderPort });
      const status = statuses[Math.min(received.length, statuses.length) - 1];
      await answerWhen();
      return new Response(null, { status });
    },
  );
  const url = `http://127.0.0.1:${server.addr.port}/hook`;
  return { received, url, close: () => server.shutdown() };
}

/** A receiver that takes requests and answers none until closed (`reached` counts them). */
export function hangingReceiver(): {
  state: { reached: number };
  url: string;
  close: () => Promise<void>;
} {
  let answer = () => {};
  const held = new Promise<void>((resolve) => answer = resolve);
  const state = { reached: 0 };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    state.reached++;
    await held;
    return new Response(null, { status: 200 });
  });
  return {
    state,
    url: `http://127.0.0.1:${server.addr.port}/hook`,
    close: async () => {
      answer();
      await server.shutdown();
    },
  };
}

/** The check docs/alerts.md shows a receiver: Stripe's scheme, constant time. */
export async function verifySignature(
  secret: string,
  header: string,
  body: string,
): Promise<boolean> {
  const [t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header)?.slice(1) ?? [];
  if (!t) return false;
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["verify"],
  );
  const signature = new Uint8Array(v1.match(/../g)!.map((hex) => parseInt(hex, 16)));
  return crypto.subtle.verify("HMAC", key, signature, new TextEncoder().encode(`${t}.${body}`));
}
