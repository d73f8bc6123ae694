/**
 * What the board shows about the Redis server behind the source.
 *
 * @module
 */

import type { StoreInfo } from "../types.ts";
import type { RedisConnection } from "./client.ts";

/** Parses the `field:value` lines of an INFO reply. */
export function parseInfo(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    if (line === "" || line.startsWith("#")) continue;
    const colon = line.indexOf(":");
    if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1));
  }
  return fields;
}

/**
 * Version, memory and uptime: INFO server and INFO memory in one pipeline.
 * Rejects with StoreUnavailableError when Redis is down (the API decides
 * how to show that).
 */
export async function getStoreInfo(connection: RedisConnection): Promise<StoreInfo> {
  const [server, memory] = (await connection.pipeline([
    ["INFO", "server"],
    ["INFO", "memory"],
  ])) as string[];
  const fields = new Map([...parseInfo(server), ...parseInfo(memory)]);
  return {
    version: fields.get("redis_version") ?? "unknown",
    usedMemory: fields.get("used_memory_human") ?? "",
    usedMemoryBytes: Number(fields.get("used_memory") ?? 0),
    uptime: Number(fields.get("uptime_in_seconds") ?? 0),
    connected: true,
  };
}
