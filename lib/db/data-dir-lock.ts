import "server-only";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * An embedded data dir (PGlite, chDB) belongs to one process (docs/architecture.md, pitfall 3): two writers
 * corrupt it. The first process to open an embedded store writes its pid to `DATA_DIR/.lock-<store>`
 * (`pg` for PGlite, `ch` for chDB); another process that finds a live pid there refuses with a
 * clear message instead of corrupting the store. Each store has its own lock, and a process takes
 * only the locks of the embedded stores it opens: with DATABASE_URL set, `admin create-key` touches
 * no embedded store and runs while the server holds the chDB lock.
 */

export class DataDirLockedError extends Error {
  override name = "DataDirLockedError";
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

const held = new Set<string>();

export type EmbeddedStore = "pg" | "ch";

const storeNames: Record<EmbeddedStore, string> = { pg: "PGlite (unset DATABASE_URL)", ch: "chDB (unset CLICKHOUSE_URL)" };

export function lockDataDir(dataDir: string, store: EmbeddedStore): void {
  const file = path.join(path.resolve(dataDir), `.lock-${store}`);
  if (held.has(file)) return;
  mkdirSync(path.dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(file, String(process.pid), { flag: "wx" });
      held.add(file);
      process.once("exit", () => rmSync(file, { force: true }));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number(readFileSync(file, "utf8").trim());
      if (owner === process.pid) {
        held.add(file);
        return;
      }
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) {
        throw new DataDirLockedError(
          `The embedded ${storeNames[store]} store in ${path.dirname(file)} is in use by process ${owner} (the server?). ` +
            `Stop it first, or point ${store === "pg" ? "DATABASE_URL" : "CLICKHOUSE_URL"} at a server.`,
        );
      }
      rmSync(file, { force: true }); // left behind by a process that died
    }
  }
  throw new DataDirLockedError(`Could not lock the embedded ${storeNames[store]} store in ${path.dirname(file)}.`);
}
