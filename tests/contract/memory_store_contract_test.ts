import { createMemoryBoardStore } from "../../src/store/memory/mod.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { boardStoreContract } from "./board_store_contract.ts";

boardStoreContract(
  "memory store",
  () => {
    const store = createMemoryBoardStore();
    return Promise.resolve({ store, close: () => store.close() });
  },
  () => {
    // Two boards given one memory store share it: both handles are the store.
    const timers = new FakeTimers();
    const store = createMemoryBoardStore({ now: () => timers.now() });
    return Promise.resolve({ first: store, second: store, timers, close: () => store.close() });
  },
);
