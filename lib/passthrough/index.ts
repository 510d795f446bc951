import "server-only";
import { ownerOf, type Principal } from "@/lib/auth/principal";
import type { PassthroughCaller } from "./call";

export { callVenueMethod, passthroughPool } from "./dispatch";
export type { PassthroughInput, PassthroughResult } from "./call";

/** Largest POST body the pass-through reads (pmxt's sidecar allows 2 MB; filterMarkets payloads fit well under 1). */
export const PASSTHROUGH_MAX_BODY_BYTES = 1024 * 1024;

/** The caller as the pass-through needs it: instance owner and, for the router, the key it was admitted with. */
export function passthroughCaller(principal: Principal, token: string | undefined): PassthroughCaller {
  return { owner: ownerOf(principal), bearer: token };
}
