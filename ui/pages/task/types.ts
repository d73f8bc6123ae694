/**
 * What the task page reads from the API: the contract's answers.
 *
 * @module
 */
export type {
  CleanPreviewResponse,
  CleanResponse,
  RetryAllResponse,
  TaskStatsResponse,
} from "../../../src/contract/tasks.ts";
