/**
 * A fleet of tasks in a real Redis, in taskora's wire format, for the
 * overview's browser tests and its render benchmark: `count` tasks named
 * `<prefix>.job-<n>` over five prefixes (`billing.`, `email.`, `media.`,
 * `reports.`, `sync.`), with every verdict: one task in 47 critical (three
 * jobs waiting, none running or finished), one in 31 warning (one failure in
 * six this minute), one in 10 idle (a job completed long ago), the rest
 * healthy (jobs completed this minute, counted).
 *
 * @module
 */

import { metricKey } from "../../src/source/wire/keys.ts";
import { type CommandSender, jobCommands } from "./wire_writer.ts";

/** The prefixes of the fleet's task names. */
export const FLEET_PREFIXES = ["billing.", "email.", "media.", "reports.", "sync."] as const;

/** The name of the fleet's `i`th task: `billing.job-000`, `email.job-001`, … */
export function fleetTask(i: number): string {
  return `${FLEET_PREFIXES[i % FLEET_PREFIXES.length]}job-${String(i).padStart(3, "0")}`;
}

/** The verdict the fleet gives its `i`th task. */
export function fleetHealth(i: number): "critical" | "warning" | "healthy" | "idle" {
  if (i % 47 === 0) return "critical";
  if (i % 31 === 5) return "warning";
  return i % 10 === 9 ? "idle" : "healthy";
}

/** Writes `count` tasks (see the module's notes), pipelined. */
export async function writeFleet(client: CommandSender, count: number): Promise<void> {
  const now = Date.now();
  const minute = Math.floor(now / 60_000) * 60_000;
  const commands: string[][] = [];
  for (let i = 0; i < count; i++) {
    const task = fleetTask(i);
    const health = fleetHealth(i);
    if (health === "critical") {
      for (let n = 0; n < 3; n++) {
        commands.push(...jobCommands({ task, state: "waiting" }).commands);
      }
    } else if (health === "idle") {
      commands.push(
        ...jobCommands({ task, state: "completed", finishedOn: now - 86_400_000 }).commands,
      );
    } else {
      const failed = health === "warning" ? 1 : 0;
      if (failed) commands.push(...jobCommands({ task, state: "failed", error: "boom" }).commands);
      commands.push(...jobCommands({ task, state: "completed", finishedOn: now }).commands);
      for (
        const [kind, n] of [["completed", failed ? 5 : 5 + (i % 7)], ["failed", failed]] as const
      ) {
        const key = metricKey(task, kind, minute);
        commands.push(["SET", key, String(n)], ["PEXPIRE", key, "86400000"]);
      }
    }
  }
  await Promise.all(commands.map((args) => client.sendCommand(args)));
}
