/**
 * For adapter authors: the two ports. `TaskSource` is what the board reads
 * and steers a task system through; `createBoard` takes any object that
 * implements it, and the board's own adapters are `createRedisSource` and
 * `createMemorySource` (exported from the package's main entry).
 * `BoardStore` is where the board keeps its own state (the `store` option);
 * its adapters are {@link createRedisBoardStore} and
 * {@link createMemoryBoardStore}, and any `TaskSource` pairs with any store.
 *
 * @example Read a task system through the port, as the board does
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemorySource } from "@x/queue-board";
 * import { JOB_STATES, type TaskSource } from "@x/queue-board/source";
 *
 * const source: TaskSource = createMemorySource();
 * assert.deepEqual(await source.listTasks(), []);
 * assert.ok(JOB_STATES.includes("retrying"));
 * await source.close();
 * ```
 *
 * @module
 */

export type * from "./src/source/types.ts";
export type * from "./src/store/types.ts";
export { createMemoryBoardStore, type MemoryBoardStoreOptions } from "./src/store/memory/mod.ts";
export { createRedisBoardStore, type RedisBoardStoreConnection } from "./src/store/redis/mod.ts";
export { DIAGNOSIS_CODES, FINISHED_STATES, JOB_STATES } from "./src/source/types.ts";
export type {
  DumpedKey,
  DumpedMember,
  KeyspaceDump,
  MemoryStoreOptions,
  RandomFn,
  SimulatorOptions,
} from "./src/source/memory/mod.ts";

export {
  ALERT_KINDS,
  type AlertDelivery,
  type AlertHistoryEntry,
  type AlertKind,
  type AlertNotice,
  type AlertPhase,
  type AlertRule,
  type AlertRuleFile,
  type AlertsFile,
  type AlertSilence,
  type AlertSinkFile,
  type AlertState,
  type AlertStatus,
  type GroupedAlert,
  type KnownShape,
  type KnownShapesChange,
  type KnownShapesRecord,
  type RuleSaveOutcome,
  type ThresholdUnit,
} from "./src/contract/alerts.ts";
export {
  READ_ACTIONS,
  type ReadAction,
  ROUTE_ACTIONS,
  type RouteAction,
} from "./src/contract/actions.ts";
export { type ErrorStatus, IncompatibleStoreError, StoreUnavailableError } from "./src/errors.ts";
export type {
  RedisClientLike,
  RedisClusterConfig,
  RedisNodeAddress,
  RedisSentinelConfig,
} from "./src/source/redis/mod.ts";
