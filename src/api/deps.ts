/**
 * What every route file is given: the source, the board's store, the
 * resolved options and the presenter. Routes parse, call the source, and shape the answer; nothing else.
 *
 * @module
 */

import type { Context } from "hono";
import type { SessionRevoker } from "../auth/revocations.ts";
import type { AuditTrail } from "../audit/trail.ts";
import type { LatencySampler } from "../samplers/latency.ts";
import type { ThroughputKeeper } from "../samplers/throughput.ts";
import type { Leadership } from "../leadership.ts";
import type { Operations } from "../bulk/operations.ts";
import type { ScanSlots } from "../scans/slots.ts";
import type { Presenter } from "../contract/present.ts";
import type { EventHub } from "../events/hub.ts";
import type { ChangeFeed } from "../feed/change_feed.ts";
import type { OwnChanges } from "../feed/own_changes.ts";
import type { HistoryStore } from "../history/store.ts";
import type { ResolvedOptions } from "../options.ts";
import type { TaskSource } from "../source/types.ts";
import type { BoardStore } from "../store/types.ts";
import type { Timers } from "../timers.ts";

/** Shared dependencies of the API routes. */
export interface ApiDeps {
  source: TaskSource;
  /** Where the board keeps its own state (the audit trail, leases, alerts, ...). */
  store: BoardStore;
  options: ResolvedOptions;
  present: Presenter;
  /** When the board was created (ms), for its uptime. */
  startedAt: number;
  /** The board's live event hub (`GET /events`). */
  events: EventHub;
  /** Where mutations are recorded (`GET /audit`). */
  audit: AuditTrail;
  /** The board's cached wait and run percentiles per task. */
  latency: LatencySampler;
  /** Whether this board leads the boards on its store: background work runs on the leader only. */
  leadership: Leadership;
  /** The day of throughput the leader keeps, or null when the store keeps none. */
  throughput: ThroughputKeeper | null;
  /** The board's change feed (the leader's live state), or null when its store keeps none. */
  feed: ChangeFeed | null;
  /** The job history (summaries of jobs taskora removed), or null when the board records none. */
  history: HistoryStore | null;
  /** When this board last changed the queue: its own answers are not older. */
  ownChanges: OwnChanges;
  /** The board's bulk operations (`/bulk`, `/operations`). */
  operations: Operations;
  /** The board's slots for scans: searches and filter counts. */
  scans: ScanSlots;
  /** The board's timers (the runtime's; a test's fake ones to move them by hand). */
  timers: Timers;
  /** ms since the epoch, moving with {@link ApiDeps.timers} (`epochClock(timers)`). */
  clock: () => number;
  /** Under session login: its revocations, and how to clear the request's cookie (`/sessions`). */
  sessions?: { revoker: SessionRevoker; clear: (c: Context) => void };
}
