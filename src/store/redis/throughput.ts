/**
 * The kept day of throughput on Redis (see `../throughput.ts`), under the
 * board's root, one slot per key:
 *
 * - `<root>:board:throughput`, a hash: `@asOf` and `@minute` (ms), `@total`
 *   and `t:<task>` (series, encoded). A read is one HMGET of `@asOf`,
 *   `@minute` and the series asked for; a pass one pipeline of HSET (the
 *   changed series only), HDEL (tasks gone) and PEXPIRE;
 * - `<root>:board:throughput:demand`, a string with a TTL, renewed by every
 *   board asked for throughput.
 *
 * Bounded: one field per task the leader keeps (at most `KEPT_TASKS`), each
 * at most a day of minutes; the hash goes {@link KEPT_THROUGHPUT_TTL_MS}
 * after the last pass, and a new leader within that reads it and goes on
 * from its last minute rather than reading the whole day again.
 *
 * @module
 */

import { keyRoot } from "../../source/wire/keys.ts";
import type { RedisConnection } from "../../source/redis/client.ts";
import type { KeptThroughputRead, KeptThroughputWrite, ThroughputStore } from "../throughput.ts";

/** How long the kept series outlive the last pass: the day they span. */
export const KEPT_THROUGHPUT_TTL_MS = 86_400_000;

/** The keys of the kept throughput. */
export function throughputKeys(prefix?: string): { kept: string; demand: string } {
  const root = `${keyRoot(prefix)}:board:throughput`;
  return { kept: root, demand: `${root}:demand` };
}

const AS_OF = "@asOf";
const MINUTE = "@minute";
const TOTAL = "@total";
const taskField = (task: string) => `t:${task}`;

/** {@link ThroughputStore} on Redis. */
export class RedisThroughputStore implements ThroughputStore {
  readonly #connection: RedisConnection;
  readonly #keys: { kept: string; demand: string };

  /** The store on `connection`, under the root of `prefix`. */
  constructor(connection: RedisConnection, prefix?: string) {
    this.#connection = connection;
    this.#keys = throughputKeys(prefix);
  }

  async write(pass: KeptThroughputWrite): Promise<void> {
    const { kept } = this.#keys;
    const fields = [AS_OF, String(pass.asOf), MINUTE, String(pass.minute)];
    if (pass.total !== null) fields.push(TOTAL, pass.total);
    for (const [task, series] of pass.tasks) fields.push(taskField(task), series);
    const gone = [...pass.removed.map(taskField), ...(pass.total === null ? [TOTAL] : [])];
    await this.#connection.pipeline([
      ["HSET", kept, ...fields],
      ...(gone.length > 0 ? [["HDEL", kept, ...gone]] : []),
      ["PEXPIRE", kept, String(KEPT_THROUGHPUT_TTL_MS)],
    ]);
  }

  async read(task?: string): Promise<KeptThroughputRead | null> {
    const field = task === undefined ? TOTAL : taskField(task);
    const [asOf, minute, series] = await this.#connection.call<(string | null)[]>([
      "HMGET",
      this.#keys.kept,
      AS_OF,
      MINUTE,
      field,
    ]);
    if (asOf === null || minute === null) return null;
    return { asOf: Number(asOf), minute: Number(minute), series };
  }

  async readAll(): Promise<Omit<KeptThroughputWrite, "removed"> | null> {
    const flat = await this.#connection.call<string[]>(["HGETALL", this.#keys.kept]);
    const fields = new Map<string, string>();
    for (let i = 0; i + 1 < flat.length; i += 2) fields.set(flat[i], flat[i + 1]);
    const asOf = fields.get(AS_OF);
    const minute = fields.get(MINUTE);
    if (asOf === undefined || minute === undefined) return null;
    const tasks = new Map<string, string>();
    for (const [field, series] of fields) {
      if (field.startsWith("t:")) tasks.set(field.slice(2), series);
    }
    return { asOf: Number(asOf), minute: Number(minute), total: fields.get(TOTAL) ?? null, tasks };
  }

  async noteDemand(ttlMs: number): Promise<void> {
    await this.#connection.call(["SET", this.#keys.demand, "1", "PX", String(Math.ceil(ttlMs))]);
  }

  async demanded(): Promise<boolean> {
    return await this.#connection.call<number>(["EXISTS", this.#keys.demand]) === 1;
  }
}
