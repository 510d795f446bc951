import "server-only";
import { watchChannel, type ChannelWatch, type Db } from "@/lib/db";
import { processGlobals } from "@/lib/process-globals.mjs";
import type { KeyPrincipal } from "./principal";
import { principalGeneration } from "./principal-cache";

/**
 * Principals by key hash on PostgreSQL (several instances), kept only while this process LISTENs
 * on `brier_keys`: drizzle/0028's statement triggers on `api_keys` (hash, account, revocation,
 * deletion) and `accounts` (email, plan, deletion) notify that channel, and PostgreSQL sends the
 * notification to every listening session when the writing transaction commits, whichever instance,
 * the admin CLI or psql wrote. Any notification drops every kept principal (such writes are rare).
 * While the listening connection is down nothing kept is used, and what was kept is dropped when
 * it listens again (a notification may have been missed meanwhile). This process's own key and plan
 * writes (`invalidatePrincipals`) drop them too, before and after they commit.
 *
 * What is not exact: a request that another instance serves between a revocation's commit and the
 * arrival of its notification there (a loopback message, docs/performance.md "Ninth pass") is still
 * admitted. A revocation through this instance is refused at once.
 */
export const KEYS_CHANNEL = "brier_keys";

const MAX_ENTRIES = 50_000;

interface KeyWatch {
  watch: ChannelWatch | undefined;
  entries: Map<string, KeyPrincipal>;
  /** Moved by every notification, every (re)LISTEN and every loss: a read that began before one is not kept. */
  epoch: number;
  /** `principalGeneration()` the entries were kept under (this process's own writes move it). */
  local: number;
}

// One watch (one listening connection) and one cache per process, whichever route bundle admits (lib/process-globals.mjs).
const globalStore = processGlobals<{ __brierKeyWatch?: WeakMap<Db, KeyWatch> }>();
const watches = (globalStore.__brierKeyWatch ??= new WeakMap());

function keyWatchOf(db: Db): KeyWatch {
  const known = watches.get(db);
  if (known !== undefined) return known;
  const state: KeyWatch = { watch: undefined, entries: new Map(), epoch: 0, local: principalGeneration() };
  const drop = () => {
    state.epoch += 1;
    state.entries.clear();
  };
  watches.set(db, state);
  state.watch = watchChannel(db, KEYS_CHANNEL, { onNotify: drop, onListening: drop, onLost: drop });
  return state;
}

/** Where a principal read from the database began: pass it back to `keepSharedPrincipal`. */
export interface SharedReadMark {
  epoch: number;
  local: number;
}

/** True while kept principals may be used: the LISTEN is in place. Starts the watch on first use. */
export function sharedPrincipalsLive(db: Db): boolean {
  return keyWatchOf(db).watch?.live === true;
}

/** The kept principal of a key hash, or undefined (none kept, or not listening). */
export function cachedSharedPrincipal(db: Db, keyHash: string): KeyPrincipal | undefined {
  const state = keyWatchOf(db);
  if (state.watch?.live !== true) return undefined;
  if (state.local !== principalGeneration()) {
    state.entries.clear();
    state.local = principalGeneration();
    return undefined;
  }
  return state.entries.get(keyHash);
}

/** Take this before reading a principal from the database. */
export function markSharedRead(db: Db): SharedReadMark {
  return { epoch: keyWatchOf(db).epoch, local: principalGeneration() };
}

/** Keeps a principal read from the database, unless a notification, a loss or a local write came in between. */
export function keepSharedPrincipal(db: Db, keyHash: string, principal: KeyPrincipal, mark: SharedReadMark): void {
  const state = keyWatchOf(db);
  if (state.watch?.live !== true || mark.epoch !== state.epoch || mark.local !== principalGeneration()) return;
  if (state.local !== mark.local) {
    state.entries.clear();
    state.local = mark.local;
  }
  if (state.entries.size >= MAX_ENTRIES) state.entries.clear();
  state.entries.set(keyHash, principal);
}
