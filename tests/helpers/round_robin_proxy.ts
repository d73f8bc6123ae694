/**
 * A round-robin load balancer for the multi-process tests: each request goes
 * to the next backend, with its `Host` kept (as a proxy that passes the
 * browser's host on), and its answer is streamed back (SSE included). A
 * backend that refuses the connection (killed) is passed over, as a
 * balancer's health check would. Each answer says which backend gave it, in
 * `X-Backend` (its index).
 *
 * @module
 */

import http from "node:http";
import { Buffer } from "node:buffer";

/** The running proxy. */
export interface RoundRobinProxy {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Makes backend `index` take the next request (the turn goes on from there). */
  turnTo(index: number): void;
  /** Stops listening and drops open connections (event streams). */
  close(): Promise<void>;
}

/** Listens on a free loopback port and forwards to the backends on `ports`, in turn. */
export async function startRoundRobinProxy(ports: readonly number[]): Promise<RoundRobinProxy> {
  let next = 0;
  const take = () => {
    const backend = next;
    next = (next + 1) % ports.length;
    return backend;
  };
  function forward(
    request: http.IncomingMessage,
    body: Buffer,
    response: http.ServerResponse,
    tries: number,
  ) {
    const backend = take();
    const upstream = http.request({
      host: "127.0.0.1",
      port: ports[backend],
      method: request.method,
      path: request.url,
      headers: request.headers,
    }, (answer) => {
      response.writeHead(answer.statusCode!, { ...answer.headers, "x-backend": String(backend) });
      answer.pipe(response);
    });
    upstream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNREFUSED" && tries > 1) forward(request, body, response, tries - 1);
      else response.destroy();
    });
    upstream.end(body);
  }
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => forward(request, Buffer.concat(chunks), response, ports.length));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    turnTo: (index) => next = index,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
