/**
 * A task's definition as the taskora App declares it (`GET
 * /tasks/{task}/definition`): null when the board runs without the App,
 * which is then said plainly rather than guessed.
 *
 * @module
 */
import type { TaskDefinitionResponse } from "../../src/contract/tasks.ts";
import { useBoard } from "./board_context.ts";
import { type LiveResource, useLiveResource } from "./use_live_resource.ts";

export type { TaskDefinition, TaskDefinitionResponse } from "../../src/contract/tasks.ts";

/** What the board says when it has no App to ask. */
export const NO_APP_NOTE =
  "Known only when the board is embedded with createBoard(app): Redis does not record it.";

/** Why what only the App knows is not shown. */
export const APP_ONLY_NOTE =
  "They need the board embedded with createBoard(app): Redis does not record them.";

/** The definition of `task` (it changes only with a deploy: no job event reloads it). */
export function useTaskDefinition(task: string): LiveResource<TaskDefinitionResponse> {
  const { api } = useBoard();
  return useLiveResource(
    (signal) => api.get("/tasks/{task}/definition", { params: { task }, signal }),
    [task],
    { relevant: () => false },
  );
}
