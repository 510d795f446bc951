import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * Which test files the PostgreSQL run (`npm run test:pg`) runs: those that can reach the relational
 * store. The others (pure logic, chDB only, loopback fakes) do the same thing on both runs, so they
 * run once, in `npm test`; running them twice tested nothing more (docs/ci.md).
 *
 * The rule reads the file's imports and follows them through the tree (relative and `@/` paths):
 * a file can reach the store when what it loads includes lib/db/client.ts (every open of the
 * database goes through it) or imports PGlite or postgres.js itself, or starts a process
 * (child_process, worker_threads), since a child inherits DATABASE_URL. Type-only imports load
 * nothing and do not count. What imports cannot show (a path computed at run time) is caught by
 * test/setup.ts on the embedded run: a file that opened its store and that this rule leaves out
 * fails there, so a new store test cannot silently drop out of the PostgreSQL run.
 */
export function usesRelationalStore(file: string, root: string): boolean {
  return reaches(file, root, storeOrProcessModule, [path.join("lib", "db", "client.ts")]);
}

/**
 * Whether the file can share its process with other test files (the `shared` project of
 * vitest.config.mts, run without per-file isolation): what it loads, followed through its imports
 * as for {@link usesRelationalStore}, reaches neither store (the relational store, chDB, whose
 * embedded data dir belongs to one process), nor the process's global slots (lib/process-globals.mjs,
 * which lib/process-globals.test.ts holds to be the whole of the process's global state), nor
 * starts a process. Such a file is pure logic, loopback fakes or files on disk: its modules' own
 * state is the only thing another file could see (test/setup.ts fails a shared file that leaves a
 * store open or a global slot set; the shuffled runs of docs/ci.md found no test depending on the
 * files before it).
 */
export function sharesProcess(file: string, root: string): boolean {
  return !reaches(file, root, storeProcessOrChdbModule, [path.join("lib", "db", "client.ts"), path.join("lib", "process-globals.mjs")]);
}

/** Whether what `file` loads, followed through its imports, includes one of `localFiles` or a package `modules` matches. */
function reaches(file: string, root: string, modules: RegExp, localFiles: string[]): boolean {
  const targets = new Set(localFiles.map((local) => path.join(root, local)));
  const seen = new Set<string>();
  const pending = [path.resolve(root, file)];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (seen.has(next)) continue;
    seen.add(next);
    if (targets.has(next)) return true;
    for (const specifier of runtimeImports(readFileSync(next, "utf8"))) {
      if (modules.test(specifier)) return true;
      const local = resolveLocal(next, specifier, root);
      if (local !== undefined) pending.push(local);
    }
  }
  return false;
}

/** The packages through which a file opens the relational store or starts a process. */
const storeOrProcessModule = /^(?:@electric-sql\/pglite(?:\/.*)?|postgres|(?:node:)?child_process|(?:node:)?worker_threads)$/;
/** The same, and chDB's packages (the embedded tick store). */
const storeProcessOrChdbModule = /^(?:@electric-sql\/pglite(?:\/.*)?|postgres|(?:node:)?child_process|(?:node:)?worker_threads|chdb(?:\/.*)?)$/;

/** Every module specifier the source loads at run time: static imports and re-exports (not `import type`), `import("…")`, `require("…")`. */
function runtimeImports(source: string): string[] {
  const found: string[] = [];
  const statement = /\b(import|export)(\s+type\b)?[^'";]*?\bfrom\s*["']([^"']+)["']|\bimport\s*["']([^"']+)["']|\b(?:import|require)\s*\(\s*["']([^"']+)["']\s*\)/g;
  for (const match of source.matchAll(statement)) {
    if (match[2] !== undefined) continue; // `import type … from` / `export type … from`
    const specifier = match[3] ?? match[4] ?? match[5];
    if (specifier !== undefined) found.push(specifier);
  }
  return found;
}

const extensions = ["", ".ts", ".tsx", ".mts", ".mjs", ".js", "/index.ts", "/index.tsx"];

function resolveLocal(from: string, specifier: string, root: string): string | undefined {
  let base: string;
  if (specifier.startsWith("@/")) base = path.join(root, specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else return undefined;
  const candidates = extensions.map((extension) => `${base}${extension}`);
  // `./x.js` / `./x.mjs` written for a TypeScript source beside it.
  if (/\.m?js$/.test(base)) candidates.push(base.replace(/\.js$/, ".ts").replace(/\.mjs$/, ".mts"));
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

/**
 * A digest of the embedded PostgreSQL's control file in `dataDir` (undefined when there is none):
 * PGlite rewrites it whenever it opens the data dir, from this process or from a child it started,
 * so two different digests around a test file mean the file opened its relational store.
 */
export function embeddedStoreState(dataDir: string): string | undefined {
  const control = path.join(dataDir, "pg", "global", "pg_control");
  return existsSync(control) ? createHash("sha256").update(readFileSync(control)).digest("hex") : undefined;
}
