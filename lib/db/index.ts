export { closeDatabase, describeDatabase, getDatabase, getDb, openDatabase } from "./client";
export type { Db, DatabaseHandle, DatabaseTarget } from "./client";

/** The rows of a `db.execute(sql)` result: postgres.js answers an array, PGlite `{ rows }`. */
export function resultRows<T = Record<string, unknown>>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
export { pgliteRunner, preparedRunner, type RunPrepared } from "./prepared";
export { watchChannel, type ChannelHandlers, type ChannelWatch } from "./notifications";
