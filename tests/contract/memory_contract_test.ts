import { createMemorySource } from "../../src/source/memory/mod.ts";
import { sourceContract } from "./source_contract.ts";

sourceContract("memory source", (dump) => {
  const source = createMemorySource({ seed: dump });
  return Promise.resolve({ source, close: () => source.close() });
});
