import "server-only";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { config } from "@/lib/config";
import { lockDataDir } from "./data-dir-lock";
import { postgresChannelWatcher, registerChannelWatcher, type ChannelWatch } from "./notifications";
import * as schema from "./schema";
import { processGlobals } from "@/lib/process-globals.mjs";

/** The drizzle database every query function takes first, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Db;
  driver: "pglite" | "postgres";
  close: () => Promise<void>;
  /** The migrations (drizzle/ tags) this handle applied when it opened; empty when it found them all applied. */
  migrationsApplied?: string[];
}

export interface DatabaseTarget {
  /** postgres:// URL; when absent, an embedded PGlite in `dataDir` (or in memory when that is absent too). */
  url?: string | undefined;
  dataDir?: string | undefined;
  /** PGlite's buffer cache in MB (default: PGLITE_SHARED_BUFFERS_MB). */
  sharedBuffersMb?: number | undefined;
}

const migrationsFolder = path.join(process.cwd(), "drizzle");

/** Opens a database and applies every committed migration. */
export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  const handle = target.url !== undefined ? await openPostgres(target.url) : await openPglite(target.dataDir, target.sharedBuffersMb ?? config.pgliteSharedBuffersMb);
  try {
    handle.migrationsApplied = await migrate(handle);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

async function openPglite(dataDir: string | undefined, sharedBuffersMb: number): Promise<DatabaseHandle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { drizzle } = await import("drizzle-orm/pglite");
  // PGlite does not create parent directories (docs/architecture.md, pitfall 2).
  if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true });
  // PGlite's default buffer cache is PostgreSQL's 128 MB, all of it resident from the start (its
  // WebAssembly heap is touched at start and never shrinks): 32 MB by default (docs/performance.md, "Memory").
  const startParams = [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffersMb}MB`];
  const client = await PGlite.create(dataDir, { extensions: { pg_trgm }, startParams });
  const db = drizzle(client, { schema, casing: "snake_case" }) as unknown as Db;
  return { db, driver: "pglite", close: () => client.close() };
}

async function openPostgres(url: string): Promise<DatabaseHandle> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const client = postgres(url, { max: 10, onnotice: () => undefined, connect_timeout: 10 });
  const db = drizzle(client, { schema, casing: "snake_case" }) as unknown as Db;
  const watches: ChannelWatch[] = [];
  const watcher = postgresChannelWatcher(url);
  registerChannelWatcher(db, (channel, handlers) => {
    const watch = watcher(channel, handlers);
    watches.push(watch);
    return watch;
  });
  const close = async () => {
    await Promise.all(watches.map((watch) => watch.close()));
    await client.end({ timeout: 5 });
  };
  return { db, driver: "postgres", close };
}

// Several server instances may start at once against one PostgreSQL: serialise migrations.
const MIGRATION_LOCK_ID = 7_246_810_431;

/** A `db.execute` result's rows (postgres.js answers an array, PGlite `{ rows }`; lib/db/index.ts resultRows). */
const resultRowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];

/** How many migrations the database records as applied (drizzle's own ledger; 0 before the first). */
async function appliedCount(handle: DatabaseHandle): Promise<number> {
  const [ledger] = resultRowsOf<{ exists: boolean }>(await handle.db.execute(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as "exists"`));
  if (ledger?.exists !== true) return 0;
  const [row] = resultRowsOf<{ n: number | string }>(await handle.db.execute(sql`select count(*) as n from drizzle.__drizzle_migrations`));
  return Number(row?.n ?? 0);
}

/** Applies the pending migrations; returns the tags of those it applied, oldest first. */
async function migrate(handle: DatabaseHandle): Promise<string[]> {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as { entries: Array<{ tag: string }> };
  const tagsSince = async (before: number) => journal.entries.slice(before, await appliedCount(handle)).map((entry) => entry.tag);
  if (handle.driver === "pglite") {
    const { migrate: run } = await import("drizzle-orm/pglite/migrator");
    const before = await appliedCount(handle);
    await run(handle.db as never, { migrationsFolder });
    return tagsSince(before);
  }
  const { migrate: run } = await import("drizzle-orm/postgres-js/migrator");
  await handle.db.execute(sql`select pg_advisory_lock(${MIGRATION_LOCK_ID})`);
  try {
    const before = await appliedCount(handle);
    await run(handle.db as never, { migrationsFolder });
    return await tagsSince(before);
  } finally {
    await handle.db.execute(sql`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`);
  }
}

/** Where the configured database lives, for logs and status (never the URL: it may hold a password). */
export function describeDatabase(): string {
  return config.embeddedPostgres ? `pglite:${path.join(config.dataDir, "pg")}` : "postgres";
}

const globalStore = processGlobals<{ __brierDb?: Promise<DatabaseHandle> }>();

/**
 * The process-wide database, opened and migrated on first use (docs/architecture.md, pitfall 2: never at module
 * load, so build workers never open the data dir and dev reloads reuse one handle).
 */
export function getDatabase(): Promise<DatabaseHandle> {
  if (globalStore.__brierDb === undefined) {
    if (config.embeddedPostgres) lockDataDir(config.dataDir, "pg");
    const opening = openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, "pg") });
    globalStore.__brierDb = opening;
    opening.catch(() => {
      if (globalStore.__brierDb === opening) globalStore.__brierDb = undefined;
    });
  }
  return globalStore.__brierDb;
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

export async function closeDatabase(): Promise<void> {
  const opening = globalStore.__brierDb;
  globalStore.__brierDb = undefined;
  if (opening !== undefined) await (await opening).close();
}
