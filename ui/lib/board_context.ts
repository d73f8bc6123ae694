/**
 * What every page needs from the shell, handed down by context: the API
 * client, the router, the board's config, the live connection, what is
 * known of the connection's health, and what alerts fire.
 *
 * @module
 */
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { Api } from "./api.ts";
import type { Connectivity } from "./connectivity.ts";
import type { FiringWatch } from "./firing.ts";
import type { Live } from "./live.ts";
import type { Router } from "./router.ts";
import type { BoardConfig } from "./types.ts";

/** The shell's services. */
export interface BoardServices {
  api: Api;
  router: Router;
  config: BoardConfig;
  live: Live;
  connectivity: Connectivity;
  /** What fires now (null: alerts not configured, or not known yet). */
  firing: FiringWatch["state"];
}

/** Provided once by the app shell. */
export const BoardContext = createContext<BoardServices | null>(null);

/** The shell's services; only valid below the app shell. */
export function useBoard(): BoardServices {
  const services = useContext(BoardContext);
  if (!services) throw new Error("useBoard() used outside the board shell");
  return services;
}
