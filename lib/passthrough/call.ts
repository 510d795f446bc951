/** One pass-through call as the domain sees it: plain values, no Request. */

/** Who calls, as the pass-through needs it. */
export interface PassthroughCaller {
  /** Owner of per-caller instances: the API key id (or the account, for dashboard sessions). */
  owner: string;
  /** The caller's raw Brier key, only for the router (it calls Brier's catalog back with it). */
  bearer: string | undefined;
}

/** GET sends args in the query string; POST sends `{ args, credentials }`. */
export type PassthroughInput =
  | { kind: "query"; query: URLSearchParams }
  | { kind: "body"; body: unknown };

export interface PassthroughCall {
  exchange: string;
  method: string;
  input: PassthroughInput;
  caller: PassthroughCaller;
  /** Aborted when the client goes away; a waiting long-poll then stops waiting. */
  signal?: AbortSignal;
}

export interface PassthroughResult {
  data: unknown;
  source: "live" | "catalog";
}
