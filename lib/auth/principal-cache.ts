import "server-only";
import type { KeyPrincipal } from "./principal";
import { processGlobals } from "@/lib/process-globals.mjs";

/**
 * Key hash -> principal, for the embedded setup only. There, one process owns the database (the
 * data-dir lock keeps the CLI and a second server out), so every write that could change a
 * principal (revoking a key, changing a plan) happens in this process and clears the cache first:
 * a revocation is still refused on the very next request. With DATABASE_URL (several instances)
 * nothing is cached and every request reads PostgreSQL.
 */

export type CachedPrincipal = KeyPrincipal;

const MAX_ENTRIES = 50_000;
const globalStore = processGlobals<{
  __brierPrincipals?: { entries: Map<string, CachedPrincipal>; generation: number };
}>();
const state = (globalStore.__brierPrincipals ??= { entries: new Map(), generation: 0 });

export function cachedPrincipal(keyHash: string): CachedPrincipal | undefined {
  return state.entries.get(keyHash);
}

/** Take this before reading the database; pass it back to cachePrincipal. */
export function principalGeneration(): number {
  return state.generation;
}

/** Caches a principal read from the database, unless a write invalidated the cache meanwhile. */
export function cachePrincipal(keyHash: string, principal: CachedPrincipal, readAtGeneration: number): void {
  if (readAtGeneration !== state.generation) return;
  if (state.entries.size >= MAX_ENTRIES) state.entries.clear();
  state.entries.set(keyHash, principal);
}

/**
 * Called around every write to keys or accounts (before, and after it commits); such writes are
 * rare, so the whole cache goes. The generation makes a read that raced the write uncacheable.
 */
export function invalidatePrincipals(): void {
  state.generation += 1;
  state.entries.clear();
}
