import { accessSync, constants, cpSync, existsSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Where the suite keeps its throw-away stores: `BRIER_TEST_TMPDIR` when set, else the machine's
 * shared-memory file system (`/dev/shm`, a tmpfs on Linux) when it is there and writable, else the
 * OS temp dir. Every test file gets fresh embedded stores in its own DATA_DIR, seeded from a
 * migrated PGlite template of ~1,100 files: on a disk that copy alone took 1.2–1.9 s a file on a
 * busy CI machine, on tmpfs 0.2 s, and the engines' own writes and fsyncs cost nothing there.
 */
export function scratchRoot(): string {
  const chosen = process.env.BRIER_TEST_TMPDIR;
  if (chosen !== undefined && chosen !== "") return chosen;
  try {
    if (statSync("/dev/shm").isDirectory()) {
      accessSync("/dev/shm", constants.W_OK);
      return "/dev/shm";
    }
  } catch {
    // No shared memory file system here: the OS temp dir.
  }
  return tmpdir();
}

/**
 * Gives `dataDir` the migrated embedded database that test/global-setup.ts made once for the run,
 * so a store opened there starts migrated. Nothing on PostgreSQL runs, or when no template was made.
 */
export function seedMigratedDatabase(dataDir: string): void {
  const template = process.env.BRIER_PGLITE_TEMPLATE;
  if (process.env.BRIER_TEST_DATABASE !== "postgres" && template !== undefined && existsSync(template)) {
    cpSync(template, path.join(dataDir, "pg"), { recursive: true });
  }
}
