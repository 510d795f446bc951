import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { scratchRoot } from "./helpers/scratch";

/**
 * Runs once per test run: builds a migrated database to copy into every test file's store
 * (opening a store and applying every migration costs seconds; copying the result costs a
 * fraction). On the embedded default a PGlite data dir copied into each file's DATA_DIR; with
 * BRIER_TEST_DATABASE=postgres a PostgreSQL template database each file's fresh database is
 * created from (test/setup.ts). Both are keyed by the migrations' content, so a new migration makes
 * a new template, and the migrations still run once per run on each store.
 */
export default async function globalSetup(): Promise<void> {
  const key = migrationsKey();
  if (process.env.BRIER_TEST_DATABASE === "postgres") {
    process.env.BRIER_PG_TEMPLATE = await postgresTemplate(key);
    return;
  }
  const template = path.join(scratchRoot(), `brier-pglite-template-${key}`);
  process.env.BRIER_PGLITE_TEMPLATE = template;
  if (existsSync(template)) return;
  const { openDatabase } = await import("@/lib/db/client");
  const building = `${template}.${process.pid}.tmp`;
  const handle = await openDatabase({ dataDir: building });
  await handle.close();
  try {
    renameSync(building, template);
  } catch {
    rmSync(building, { recursive: true, force: true }); // a parallel run made it first
  }
}

function migrationsKey(): string {
  const hash = createHash("sha256");
  for (const file of readdirSync("drizzle", { recursive: true }).map(String).sort()) {
    const full = path.join("drizzle", file);
    if (full.endsWith(".sql") || full.endsWith(".json")) hash.update(file).update(readFileSync(full));
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * The migrated template database for this set of migrations, made once on the server (several
 * runs may start at once, e.g. from several checkouts: one builds under an advisory lock, the
 * others wait for it). Built under another name and renamed when whole, so a run killed while
 * building never leaves a half-migrated template behind that name. Nothing connects to it once
 * built: PostgreSQL copies a template only while no session is connected to it.
 */
async function postgresTemplate(key: string): Promise<string> {
  const adminUrl = process.env.BRIER_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const name = `brier_test_template_${key}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
  try {
    await admin`select pg_advisory_lock(hashtext('brier_test_template'))`;
    const [found] = await admin`select 1 as found from pg_database where datname = ${name}`;
    if (found === undefined) {
      const building = `${name}_building`;
      await admin.unsafe(`drop database if exists ${building} with (force)`);
      await admin.unsafe(`create database ${building}`);
      const url = new URL(adminUrl);
      url.pathname = `/${building}`;
      const { openDatabase } = await import("@/lib/db/client");
      const handle = await openDatabase({ url: url.toString() });
      await handle.close();
      await admin.unsafe(`alter database ${building} rename to ${name}`);
      // Marked a template that takes no connections, so no stray session can block a copy.
      await admin.unsafe(`alter database ${name} with is_template true allow_connections false`);
    }
  } finally {
    await admin`select pg_advisory_unlock(hashtext('brier_test_template'))`.catch(() => undefined);
    await admin.end();
  }
  return name;
}
