/**
 * What the board shows about the Redis server behind the source.
 *
 * @module
 */

import type { StoreInfo } from "../types.ts";
import type { RedisConnection } from "./client.ts";

/**
 * The value of one `field:value` line of an INFO reply, or undefined. Finds
 * the line rather than parsing them all: the overview reads four fields of
 * some eighty lines on every request.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { infoField } from "./info.ts";
 * assert.deepEqual(infoField("# Server\r\nredis_version:7.2.4\r\n", "redis_version"), "7.2.4");
 * ```
 */
export function infoField(text: string, name: string): string | undefined {
  // Searched with a newline before the first line too, so every line starts alike.
  const label = `\n${name}:`;
  const at = `\n${text}`.indexOf(label);
  if (at === -1) return undefined;
  const from = at + label.length - 1;
  const end = text.indexOf("\n", from);
  return text.slice(from, end === -1 ? undefined : end).replace(/\r$/, "");
}

/**
 * Version, memory (used, and `maxmemory`) and uptime: INFO server and INFO
 * memory in one pipeline.
 * Rejects with StoreUnavailableError when Redis is down (the API decides
 * how to show that).
 */
export async function getStoreInfo(connection: RedisConnection): Promise<StoreInfo> {
  const [server, memory] = (await connection.pipeline([
    ["INFO", "server"],
    ["INFO", "memory"],
  ])) as string[];
  return {
    version: infoField(server, "redis_version") ?? "unknown",
    usedMemory: infoField(memory, "used_memory_human") ?? "",
    usedMemoryBytes: Number(infoField(memory, "used_memory") ?? 0),
    // 0 is Redis' "no limit".
    maxMemoryBytes: Number(infoField(memory, "maxmemory") ?? 0) || null,
    uptime: Number(infoField(server, "uptime_in_seconds") ?? 0),
    connected: true,
  };
}
