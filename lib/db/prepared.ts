import "server-only";
import type { Db } from "./client";

/** Runs a statement's text with its parameters as a named (prepared) statement on its connection. */
export type RunPrepared = (text: string, params: unknown[]) => Promise<Array<Record<string, unknown>>>;

/** postgres.js's `unsafe` (the driver under a drizzle Db on PostgreSQL: `$client`); absent on PGlite. */
type Unsafe = (text: string, params: unknown[], options: { prepare: boolean }) => Promise<Array<Record<string, unknown>>>;

/**
 * Named statements on PostgreSQL, for a hot statement whose text is fixed: postgres.js parses and
 * describes a text once per connection and then sends only its values, where drizzle's `execute`
 * renders the statement and sends it unnamed on every call (parsed and planned by the server each
 * time; ~0.2 ms more of the client's CPU per call for admission's statement, docs/performance.md,
 * "Eighth pass"). Undefined on PGlite (no such driver; an in-process call there costs no round trip).
 */
export function preparedRunner(db: Db): RunPrepared | undefined {
  const client = (db as unknown as { $client?: { unsafe?: Unsafe } }).$client;
  const unsafe = client?.unsafe;
  if (client === undefined || typeof unsafe !== "function") return undefined;
  return (text, params) => unsafe.call(client, text, params, { prepare: true });
}

/** PGlite's own `query` (the client under a drizzle Db on the embedded store: `$client`). */
type PgliteQuery = (text: string, params: unknown[]) => Promise<{ rows: Array<Record<string, unknown>> }>;

/**
 * A fixed text on PGlite sent as it is through its own `query`: drizzle's `execute` there cost ~0.7
 * ms more of the process's CPU per call for the catalog generation's one-row read (docs/performance.md,
 * "Eighth pass"). Undefined on PostgreSQL (`preparedRunner` is its way).
 */
export function pgliteRunner(db: Db): RunPrepared | undefined {
  if (preparedRunner(db) !== undefined) return undefined;
  const client = (db as unknown as { $client?: { query?: PgliteQuery } }).$client;
  const query = client?.query;
  if (client === undefined || typeof query !== "function") return undefined;
  return async (text, params) => (await query.call(client, text, params)).rows;
}
