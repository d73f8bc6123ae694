/**
 * How job values are reshaped before they are shown: the presenter applies
 * these, then redaction. Declared here, below everything, because the
 * presenter (`present.ts`) and the options both speak of them.
 *
 * @module
 */

/** Functions that reshape job values before redaction, per task. */
export interface Formatters {
  /** Reshapes a job's data before it is shown. */
  data?: (value: unknown, task: string) => unknown;
  /** Reshapes a job's result before it is shown. */
  result?: (value: unknown, task: string) => unknown;
}
