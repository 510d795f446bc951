import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { scratchRoot } from "./helpers/scratch";

/**
 * Runs once per test run: builds a migrated PGlite data dir to copy into every test file's
 * DATA_DIR (opening PGlite and applying every migration costs seconds; copying the result costs
 * a fraction). Keyed by the migrations' content, so a new migration makes a new template.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.BRIER_TEST_DATABASE === "postgres") return;
  const hash = createHash("sha256");
  for (const file of readdirSync("drizzle", { recursive: true }).map(String).sort()) {
    const full = path.join("drizzle", file);
    if (full.endsWith(".sql") || full.endsWith(".json")) hash.update(file).update(readFileSync(full));
  }
  const template = path.join(scratchRoot(), `brier-pglite-template-${hash.digest("hex").slice(0, 16)}`);
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
