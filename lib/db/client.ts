import "server-only";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { config } from "@/lib/config";
import { lockDataDir } from "./data-dir-lock";
import * as schema from "./schema";
import { processGlobals } from "@/lib/process-globals.mjs";

/** The drizzle database every query function takes first, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Db;
  driver: "pglite" | "postgres";
  close: () => Promise<void>;
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
    await migrate(handle);
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
  return { db, driver: "postgres", close: () => client.end({ timeout: 5 }) };
}

// Several server instances may start at once against one PostgreSQL: serialise migrations.
const MIGRATION_LOCK_ID = 7_246_810_431;

async function migrate(handle: DatabaseHandle): Promise<void> {
  if (handle.driver === "pglite") {
    const { migrate: run } = await import("drizzle-orm/pglite/migrator");
    await run(handle.db as never, { migrationsFolder });
    return;
  }
  const { migrate: run } = await import("drizzle-orm/postgres-js/migrator");
  await handle.db.execute(sql`select pg_advisory_lock(${MIGRATION_LOCK_ID})`);
  try {
    await run(handle.db as never, { migrationsFolder });
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
