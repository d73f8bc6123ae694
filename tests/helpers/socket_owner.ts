/**
 * Which of some processes holds a loopback TCP connection, found through
 * Linux's `/proc` (`/proc/net/tcp` maps the connection's local port to a
 * socket inode, `/proc/<pid>/fd` the inode to a process). A multi-process
 * test uses it to tell which board sent a request its receiver got: the
 * board names itself nowhere else.
 *
 * @module
 */

/** The socket inodes of the open IPv4 connections whose local port is `port`. */
async function inodesOfLocalPort(port: number): Promise<Set<string>> {
  const table = await Deno.readTextFile("/proc/net/tcp");
  const inodes = new Set<string>();
  for (const line of table.split("\n").slice(1)) {
    const fields = line.trim().split(/\s+/);
    // local_address is HEX_IP:HEX_PORT; inode is the tenth field (0 once closed).
    const local = fields[1];
    const inode = fields[9];
    if (!local || !inode || inode === "0") continue;
    if (parseInt(local.split(":")[1], 16) === port) inodes.add(inode);
  }
  return inodes;
}

/** Whether process `pid` has one of `inodes` open. */
async function holdsAny(pid: number, inodes: Set<string>): Promise<boolean> {
  for await (const entry of Deno.readDir(`/proc/${pid}/fd`)) {
    const target = await Deno.readLink(`/proc/${pid}/fd/${entry.name}`).catch(() => "");
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode !== undefined && inodes.has(inode)) return true;
  }
  return false;
}

/**
 * The one of `pids` whose open connection has local port `port` (the remote
 * port a server saw), or null when none has (the connection is closed).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ownerOfLocalPort } from "./socket_owner.ts";
 * const server = Deno.listen({ hostname: "127.0.0.1", port: 0 });
 * const client = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
 * const accepted = await server.accept();
 * const { port } = accepted.remoteAddr as Deno.NetAddr;
 * assert.equal(await ownerOfLocalPort(port, [Deno.pid]), Deno.pid);
 * for (const closer of [client, accepted, server]) closer.close();
 * ```
 */
export async function ownerOfLocalPort(port: number, pids: number[]): Promise<number | null> {
  const inodes = await inodesOfLocalPort(port);
  if (inodes.size === 0) return null;
  for (const pid of pids) if (await holdsAny(pid, inodes)) return pid;
  return null;
}
