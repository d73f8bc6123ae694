/** The HistoryStore contract on the memory adapter. */

import { createMemoryHistoryStore } from "../../src/store/memory/history.ts";
import { historyStoreContract } from "./history_store_contract.ts";

historyStoreContract("memory history", (limits) => {
  const store = createMemoryHistoryStore({ limits });
  return Promise.resolve({ store, close: () => store.close() });
});
