import { randomBytes } from "node:crypto";
import dns from "node:dns";
import { mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { afterAll } from "vitest";
import { scratchRoot, seedMigratedDatabase } from "./helpers/scratch";
import { embeddedStoreState, usesRelationalStore } from "./helpers/store-users";

/**
 * Runs before every test file, in that file's own process: fresh embedded stores in a temp
 * DATA_DIR, and with BRIER_TEST_DATABASE=postgres a fresh PostgreSQL database (dropped after),
 * so the same suite runs on PGlite and on PostgreSQL.
 */

// In the `shared` project (vitest.config.mts) several files run one after another in one process,
// whose modules (lib/config read DATA_DIR once) stay loaded: those files open no store, and share
// one DATA_DIR, made by the process's first file and removed when the process exits.
const sharedProcess = process.env.BRIER_TEST_SHARED_PROCESS === "true";
const dataDir = sharedProcess ? sharedDataDir() : mkdtempSync(path.join(scratchRoot(), "brier-test-"));
process.env.DATA_DIR = dataDir;
(process.env as Record<string, string>).NODE_ENV = "test";
process.env.BACKGROUND_JOBS = "false";
process.env.LOG_LEVEL ??= "error";
// Proxies make axios hang on loopback fakes (docs/architecture.md, pitfall 11).
for (const name of ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy"]) {
  delete process.env[name];
}
process.env.NO_PROXY = "127.0.0.1,localhost";

function sharedDataDir(): string {
  const made = process.env.BRIER_TEST_SHARED_DATA_DIR;
  if (made !== undefined) return made;
  const dir = mkdtempSync(path.join(scratchRoot(), "brier-test-shared-"));
  process.env.BRIER_TEST_SHARED_DATA_DIR = dir;
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// Tests never reach an external host: any name other than localhost fails to resolve, at once,
// the way an offline machine answers (so a test that forgot its fake fails loudly, not slowly).
// Installed once per process: a shared process runs this file again for each of its test files.
const offlineMark = Symbol.for("brier.test.offline-dns");
if (!(offlineMark in dns)) {
  Object.assign(dns, { [offlineMark]: true });
  installOfflineLookup();
}

function installOfflineLookup(): void {
  const loopbackNames = new Set(["localhost", "localhost.", "ip6-localhost"]);
  const isLoopback = (hostname: string) =>
    loopbackNames.has(hostname.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(hostname) || hostname === "::1";
  type LookupCallback = (error: NodeJS.ErrnoException | null, address?: string | dns.LookupAddress[], family?: number) => void;
  const realLookup = dns.lookup.bind(dns) as (...args: unknown[]) => void;
  const offlineError = (hostname: string): NodeJS.ErrnoException =>
    Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname} (tests are offline: use a loopback fake)`), {
      code: "ENOTFOUND",
      hostname,
    });
  (dns as { lookup: unknown }).lookup = (hostname: string, ...rest: unknown[]) => {
    if (isLoopback(hostname)) return realLookup(hostname, ...rest);
    const callback = rest[rest.length - 1] as LookupCallback;
    process.nextTick(() => callback(offlineError(hostname)));
  };
  const realPromiseLookup = dns.promises.lookup.bind(dns.promises);
  (dns.promises as { lookup: unknown }).lookup = (hostname: string, ...rest: unknown[]) =>
    isLoopback(hostname)
      ? (realPromiseLookup as (...args: unknown[]) => Promise<unknown>)(hostname, ...rest)
      : Promise.reject(offlineError(hostname));
}

// A migrated PGlite data dir made once per run by test/global-setup.ts (not in a shared process,
// whose files open no store: the guard below still sees a store opened there, by the control file
// it would create).
if (!sharedProcess) seedMigratedDatabase(dataDir);
const storeAtStart = embeddedStoreState(dataDir);

const adminUrl = process.env.BRIER_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
let databaseName: string | undefined;

if (process.env.BRIER_TEST_DATABASE === "postgres") {
  databaseName = `brier_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
  // From the migrated template test/global-setup.ts made once for the run (without one, the database
  // starts empty and migrates when a store opens it). Commits skip the wait for the WAL's
  // flush: the suite never tests surviving a crash of the server itself, and every test file's
  // database is dropped after it.
  const template = process.env.BRIER_PG_TEMPLATE;
  await admin.unsafe(`create database ${databaseName}${template === undefined ? "" : ` template ${template}`}`);
  await admin.unsafe(`alter database ${databaseName} set synchronous_commit = off`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  process.env.DATABASE_URL = url.toString();
}

// The stores' process-wide handles (lib/db/client.ts, lib/ticks/client.ts, lib/auth/usage.ts): a
// file that never opened a store does not load the stores' modules just to close nothing.
const opened = globalThis as typeof globalThis & { __brierDb?: unknown; __brierTicks?: unknown; __brierUsage?: unknown };

// The process's global slots (lib/process-globals.mjs) set when the file starts: a file of a shared
// process that leaves another set behind hands process state to the files after it.
const processSlots = () => Object.keys(globalThis).filter((key) => key.startsWith("__brier") && (globalThis as Record<string, unknown>)[key] !== undefined);
const slotsAtStart = new Set(processSlots());

afterAll(async ({}, suite) => {
  const storesOpened = [opened.__brierDb, opened.__brierTicks].some((handle) => handle !== undefined);
  const slotsLeft = processSlots().filter((key) => !slotsAtStart.has(key));
  // Write what the file's requests left in the usage buffer while its database still exists.
  if (opened.__brierUsage !== undefined && opened.__brierDb !== undefined) {
    const { flushUsage } = await import("@/lib/auth/usage");
    await flushUsage().catch(() => undefined);
  }
  if (opened.__brierDb !== undefined) {
    const { closeDatabase } = await import("@/lib/db");
    await closeDatabase().catch(() => undefined);
  }
  if (opened.__brierTicks !== undefined) {
    const { closeTickStores } = await import("@/lib/ticks");
    await closeTickStores().catch(() => undefined);
  }
  if (databaseName !== undefined) {
    const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
    await admin.unsafe(`drop database if exists ${databaseName} with (force)`);
    await admin.end();
  }
  // The PostgreSQL run runs only the files that can reach the relational store (test/helpers/store-users.ts):
  // a file that opened its store on this run and that the rule leaves out fails, so it cannot drop out unseen.
  const missed =
    process.env.BRIER_TEST_DATABASE !== "postgres" &&
    "filepath" in suite &&
    embeddedStoreState(dataDir) !== storeAtStart &&
    !usesRelationalStore(suite.filepath, fileURLToPath(new URL("..", import.meta.url)));
  if (!sharedProcess) rmSync(dataDir, { recursive: true, force: true });
  if (sharedProcess && (storesOpened || slotsLeft.length > 0)) {
    throw new Error(
      `This file ran in a shared process (the \`shared\` project of vitest.config.mts) and left process state to the next file ` +
        `(${storesOpened ? "an open store" : `global slots ${slotsLeft.join(", ")}`}): make what it opens reachable through its imports ` +
        "(test/helpers/store-users.ts, sharesProcess) or release it after the file.",
    );
  }
  if (missed) {
    throw new Error(
      "This file opened the relational store, but test/helpers/store-users.ts leaves it out of the PostgreSQL run " +
        "(npm run test:pg): make what opens the store reachable through the file's imports.",
    );
  }
});
