/**
 * Keys the board replicas keep for themselves beside the data (see
 * `boardKeys` in src/source/wire/keys.ts): a lease a looked-at board
 * competes for, the leader's shared results and the asked sets, each
 * expiring or capped. Tests that prove "the data is unchanged" leave them out.
 *
 * @module
 */

/** Whether `key` is a lease, a shared result or an asked set of the board replicas. */
export function isReplicaBookkeeping(key: string): boolean {
  return /:board:(lease|shared|asked):/.test(key);
}
