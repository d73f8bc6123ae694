/**
 * The CPU time a process has used, to the nanosecond: the sum over its
 * threads of the first field of `/proc/<pid>/task/<tid>/schedstat` (time on
 * a CPU, ns), since `/proc/<pid>/stat` counts in clock ticks (10 ms), coarser
 * than one request, and a Deno process's work is spread over its threads
 * (the main isolate, the I/O and GC threads). Linux only. And Redis's own,
 * from `INFO cpu`.
 *
 * @module
 */

/** The CPU time (ms) the live threads of process `pid` have used so far. */
export async function cpuMsOf(pid: number): Promise<number> {
  let ns = 0;
  for await (const thread of Deno.readDir(`/proc/${pid}/task`)) {
    try {
      const stat = await Deno.readTextFile(`/proc/${pid}/task/${thread.name}/schedstat`);
      ns += Number(stat.split(" ")[0]);
    } catch {
      // The thread ended between the listing and the read: its time is gone with it.
    }
  }
  return ns / 1e6;
}

/** A client that can send Redis commands (the benchmarks' node-redis client). */
interface CommandSender {
  sendCommand(args: string[]): Promise<unknown>;
}

/** The CPU time (ms) the Redis server `client` is connected to has used so far (`INFO cpu`). */
export async function redisCpuMs(client: CommandSender): Promise<number> {
  const info = String(await client.sendCommand(["INFO", "cpu"]));
  const seconds = (name: string) => Number(info.match(new RegExp(`^${name}:([\\d.]+)`, "m"))![1]);
  return (seconds("used_cpu_user") + seconds("used_cpu_sys")) * 1000;
}
