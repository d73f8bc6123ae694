/** Boards on one memory source act as one board for bulk operations (see `operation_replicas.ts`). */

import { createMemorySource } from "../../src/source/memory/mod.ts";
import { readFixture } from "../helpers/fixture.ts";
import { operationReplicaSuite } from "./operation_replicas.ts";

operationReplicaSuite("memory source", async () => {
  const source = createMemorySource({ seed: readFixture() });
  const failed = await source.listJobs("send-email", "failed", 0, 100);
  return {
    source: () => source,
    failedIds: failed.jobs.map((job) => job.id),
    stateOf: async (id) => (await source.getJob(id))?.state ?? null,
    close: () => source.close(),
  };
});
