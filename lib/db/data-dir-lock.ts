import "server-only";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * An embedded data dir (PGlite, chDB) belongs to one process (STACK.md pitfall 3): two writers
 * corrupt it. The first process to open it writes its pid to `DATA_DIR/.lock`; another process
 * that finds a live pid there refuses with a clear message instead of corrupting the stores.
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

export function lockDataDir(dataDir: string): void {
  const file = path.join(path.resolve(dataDir), ".lock");
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
          `The embedded data dir ${path.dirname(file)} is in use by process ${owner} (the server?). ` +
            "Stop it first, or point DATABASE_URL / CLICKHOUSE_URL at servers.",
        );
      }
      rmSync(file, { force: true }); // left behind by a process that died
    }
  }
  throw new DataDirLockedError(`Could not lock the embedded data dir ${path.dirname(file)}.`);
}
