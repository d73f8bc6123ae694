/**
 * The wire-version check: the keyspace says which taskora wire format wrote
 * it (`<root>:meta`), and the board refuses one it does not understand
 * instead of misreading it.
 *
 * @module
 */

import { IncompatibleStoreError } from "../../errors.ts";
import { globalKeys, SUPPORTED_WIRE_VERSIONS } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";

/** What `<root>:meta` says, or null when the keyspace has none (nothing written yet). */
export interface WireMeta {
  wireVersion: number;
  minCompat: number;
  writtenBy: string | null;
}

/** Reads `<root>:meta` in one round trip. */
export async function readWireMeta(
  connection: RedisConnection,
  prefix?: string,
): Promise<WireMeta | null> {
  const [wire, min, writtenBy] = await connection.call<(string | null)[]>([
    "HMGET",
    globalKeys(prefix).meta,
    "wireVersion",
    "minCompat",
    "writtenBy",
  ]);
  if (wire === null) return null;
  const wireVersion = Number(wire);
  return {
    wireVersion,
    minCompat: min === null ? wireVersion : Number(min),
    writtenBy,
  };
}

/**
 * Throws {@link IncompatibleStoreError} when the keyspace was written in a
 * format outside what this board reads: its wire version is older than our
 * oldest, or it requires (minCompat) a newer reader than we are.
 */
export function assertCompatible(meta: WireMeta | null): void {
  if (meta === null) return;
  const { min, max } = SUPPORTED_WIRE_VERSIONS;
  if (
    !Number.isFinite(meta.wireVersion) || meta.wireVersion < min ||
    !Number.isFinite(meta.minCompat) || meta.minCompat > max
  ) {
    throw new IncompatibleStoreError(
      `The keyspace was written in taskora wire format ${meta.wireVersion} ` +
        `(readable by wire ${meta.minCompat} and newer` +
        `${meta.writtenBy ? `, written by ${meta.writtenBy}` : ""}); ` +
        `this board reads wire format ${min === max ? min : `${min} to ${max}`}`,
    );
  }
}

/** Reads the meta hash and checks it; see {@link assertCompatible}. */
export async function checkWireVersion(
  connection: RedisConnection,
  prefix?: string,
): Promise<void> {
  assertCompatible(await readWireMeta(connection, prefix));
}
