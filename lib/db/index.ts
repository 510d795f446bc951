export { closeDatabase, describeDatabase, getDatabase, getDb, openDatabase } from "./client";
export type { Db, DatabaseHandle, DatabaseTarget } from "./client";
