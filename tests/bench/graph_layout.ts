/**
 * How long the workflow page's layout (`ui/pages/workflow/layout.ts`, d3-dag's
 * Sugiyama steps) takes for workflow shapes from small to very large: a chord
 * of 10, 140 and 1,000 parallel jobs, a chain of 500, and a mesh of 10 layers
 * of 30 nodes each waiting for the whole previous layer (8,100 links).
 *
 * d3-dag's per-module build resolves only through a bundler (its imports
 * carry no file extensions), so the layout is bundled first with
 * `deno bundle`, as the UI build does, and the bundle is timed.
 *
 * Prints the median and slowest of 15 runs per shape. Run:
 * `deno run -A tests/bench/graph_layout.ts`.
 */

import type { GraphLayout, NodeBox } from "../../ui/pages/workflow/layout.ts";

const RUNS = 15;
const BOX: NodeBox = { width: 168, height: 50 };

type LayoutWorkflow = (deps: readonly (readonly number[])[], box: NodeBox) => GraphLayout;

async function bundledLayout(): Promise<LayoutWorkflow> {
  const dir = await Deno.makeTempDir({ prefix: "queue-board-layout-" });
  const out = `${dir}/layout.js`;
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--platform=browser", "-o", out, "ui/pages/workflow/layout.ts"],
    cwd: new URL("../../", import.meta.url),
    stdout: "null",
    stderr: "piped",
  }).output();
  if (code !== 0) throw new Error(new TextDecoder().decode(stderr));
  const module = await import(`file://${out}`);
  await Deno.remove(dir, { recursive: true });
  return module.layoutWorkflow;
}

/** Every node `i < n` is a root; node `n` waits for all of them. */
const chord = (n: number) => [
  ...Array.from({ length: n }, () => []),
  Array.from({ length: n }, (_, i) => i),
];
const chain = (n: number) => Array.from({ length: n }, (_, i) => (i ? [i - 1] : []));
const mesh = (layers: number, width: number) =>
  Array.from({ length: layers * width }, (_, i) => {
    const layer = Math.floor(i / width);
    return layer ? Array.from({ length: width }, (_, j) => (layer - 1) * width + j) : [];
  });

const shapes: [string, number[][]][] = [
  ["chord of 10", chord(10)],
  ["chord of 140", chord(140)],
  ["chord of 1,000", chord(1000)],
  ["chain of 500", chain(500)],
  ["mesh 10 × 30 (8,100 links)", mesh(10, 30)],
];

const layoutWorkflow = await bundledLayout();
const ms = (n: number) => `${n.toFixed(1)} ms`.padStart(9);
console.log(`graph layout, ${RUNS} runs each: median / slowest`);
for (const [name, deps] of shapes) {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const layout = layoutWorkflow(deps, BOX);
    times.push(performance.now() - started);
    if (layout.nodes.length !== deps.length) throw new Error(`${name}: nodes went missing`);
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(28)} ${ms(times[Math.floor(RUNS / 2)])} / ${ms(times[RUNS - 1])}`);
}
