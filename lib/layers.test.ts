import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The map of lib/ in docs/architecture.md ("Layers and folders") checked against the tree; the
// same parser feeds the lint rules (.dependency-cruiser.cjs), so the map is also what is enforced.
const require = createRequire(import.meta.url);
const { readLayerMap, readTableOwners, LAYERS } = require("../scripts/lint/layer-map.cjs") as {
  readLayerMap: (root?: string) => { folders: Map<string, { layer: string; imports: string[]; owns: string[] }> };
  readTableOwners: (root?: string) => {
    modules: Map<string, { owner: string | undefined; tables: string[] }>;
    owners: Map<string, string>;
    crossings: Array<{ folder: string; table: string }>;
  };
  LAYERS: string[];
};
const root = path.resolve(__dirname, "..");
const { folders } = readLayerMap(root);
const rank = (folder: string) => LAYERS.indexOf(folders.get(folder)?.layer ?? "");

describe("the layer map of lib/ (docs/architecture.md)", () => {
  it("has one row for every folder of lib/ and none for a folder that is gone", () => {
    const tree = readdirSync(path.join(root, "lib"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    const mapped = [...folders.keys()].filter((name) => name !== "base").sort();
    expect(mapped).toEqual(tree);
    expect(folders.get("base")?.layer).toBe("base");
  });

  it("lists only folders that exist, never a folder of a higher layer, never itself", () => {
    for (const [folder, { imports }] of folders) {
      for (const target of imports) {
        expect(folders.has(target), `${folder} lists ${target}`).toBe(true);
        expect(target, `${folder} lists itself`).not.toBe(folder);
        expect(rank(target), `${folder} (${folders.get(folder)?.layer}) may not import ${target} (${folders.get(target)?.layer})`).toBeLessThanOrEqual(rank(folder));
      }
    }
  });

  it("allows no cycle between folders", () => {
    const state = new Map<string, "open" | "done">();
    const trail: string[] = [];
    const visit = (folder: string): string[] | undefined => {
      if (state.get(folder) === "done") return undefined;
      if (state.get(folder) === "open") return [...trail.slice(trail.indexOf(folder)), folder];
      state.set(folder, "open");
      trail.push(folder);
      for (const target of folders.get(folder)?.imports ?? []) {
        const cycle = visit(target);
        if (cycle) return cycle;
      }
      trail.pop();
      state.set(folder, "done");
      return undefined;
    };
    for (const folder of folders.keys()) expect(visit(folder), "a cycle in the layer map").toBeUndefined();
  });

  it("refuses a doc without the table, or with a layer it does not know", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "layers-"));
    mkdirSync(path.join(dir, "docs"));
    writeFileSync(path.join(dir, "docs", "architecture.md"), "# Architecture\n\n## Decisions\n");
    expect(() => readLayerMap(dir)).toThrow(/Layers and folders/);
    writeFileSync(path.join(dir, "docs", "architecture.md"), "# Architecture\n\n## Layers and folders\n\n| `lib/x/` | middle | a job | — |\n");
    expect(() => readLayerMap(dir)).toThrow(/unknown layer "middle"/);
  });
});

describe("the owners of tables (the layer map's owns column)", () => {
  const { modules, owners, crossings } = readTableOwners(root);

  it("names one owning folder for every table of lib/db/schema, and owns only tables that exist", () => {
    for (const [file, { owner, tables }] of modules) {
      expect(tables.length, `lib/db/schema/${file}.ts defines no table`).toBeGreaterThan(0);
      expect(owner, `lib/db/schema/${file}.ts (${tables.join(", ")}) has no owner in the owns column`).toBeDefined();
    }
    const defined = new Set([...modules.values()].flatMap((m) => m.tables));
    for (const [table, folder] of owners) expect(defined.has(table), `lib/${folder}/ owns ${table}, which no schema module defines`).toBe(true);
  });

  it("lists only crossings that still exist (a moved one must leave the list)", () => {
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? sources(path.join(dir, entry.name)) : /\.tsx?$/.test(entry.name) && !entry.name.includes(".test.") ? [path.join(dir, entry.name)] : [],
      );
    for (const { folder, table } of crossings) {
      const schemaModule = [...modules].find(([, m]) => m.tables.includes(table))?.[0];
      expect(schemaModule, `crossing of ${table}: no schema module defines it`).toBeDefined();
      expect(owners.get(table), `lib/${folder}/ owns ${table}: not a crossing`).not.toBe(folder);
      const importing = sources(path.join(root, "lib", folder)).filter((file) => readFileSync(file, "utf8").includes(`db/schema/${schemaModule}"`));
      expect(importing, `lib/${folder}/ no longer imports ${table}: delete its crossing from docs/architecture.md`).not.toEqual([]);
    }
  });
});

describe("npm run deps:check (dependency-cruiser with the layer map)", () => {
  const depcruise = path.join(root, "node_modules", ".bin", "depcruise");
  const config = path.join(root, ".dependency-cruiser.cjs");

  /** Runs the project's rules over a small tree of files (path -> source) and returns the exit code and report. */
  function cruise(files: Record<string, string>): { status: number | null; report: string } {
    const dir = mkdtempSync(path.join(tmpdir(), "layers-cruise-"));
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "esnext", moduleResolution: "bundler", strict: true } }));
    for (const [file, source] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), source);
    }
    const run = spawnSync(depcruise, ["--config", config, "--output-type", "err", "lib"], { cwd: dir, encoding: "utf8" });
    return { status: run.status, report: `${run.stdout}${run.stderr}` };
  }

  it("passes imports that point down", () => {
    const run = cruise({
      "lib/log.ts": "export const log = 1;\n",
      "lib/db/index.ts": 'import { log } from "../log";\nexport const db = log;\n',
      "lib/catalog/list.ts": 'import { db } from "../db/index";\nexport const list = db;\n',
      "lib/jobs/catalog.ts": 'import { list } from "../catalog/list";\nexport const job = list;\n',
    });
    expect(run.report).not.toMatch(/error/);
    expect(run.status).toBe(0);
  }, 60_000);

  it("fails on a planted upward import (a domain importing jobs)", () => {
    const run = cruise({
      "lib/jobs/catalog.ts": "export const job = 1;\n",
      "lib/catalog/list.ts": 'import { job } from "../jobs/catalog";\nexport const list = job;\n',
    });
    expect(run.status).not.toBe(0);
    expect(run.report).toMatch(/domain-imports-jobs/);
    expect(run.report).toMatch(/not-in-layer-map/);
  }, 60_000);

  it("fails on a planted cycle (between folders, and between files of one folder)", () => {
    const run = cruise({
      "lib/catalog/list.ts": 'import { pool } from "../passthrough/pool";\nexport const list = pool;\n',
      "lib/passthrough/pool.ts": 'import { list } from "../catalog/list";\nexport const pool = () => list;\n',
      "lib/history/a.ts": 'import { b } from "./b";\nexport const a = () => b;\n',
      "lib/history/b.ts": 'import { a } from "./a";\nexport const b = () => a;\n',
    });
    expect(run.status).not.toBe(0);
    expect(run.report).toMatch(/not-in-layer-map: lib\/catalog\/list\.ts → lib\/passthrough\/pool\.ts/);
    expect(run.report).toMatch(/no-circular/);
  }, 60_000);

  it("fails on a planted import of another owner's table, and of the schema barrel; passes the owner's own", () => {
    const run = cruise({
      "lib/db/schema/accounts.ts": "export const accounts = 1;\n",
      "lib/db/schema/index.ts": 'export * from "./accounts";\n',
      "lib/auth/accounts.ts": 'import { accounts } from "../db/schema/accounts";\nexport const mine = accounts;\n',
      "lib/streams/usage.ts": 'import { accounts } from "../db/schema/accounts";\nexport const theirs = accounts;\n',
      "lib/watchlist/list.ts": 'import { accounts } from "../db/schema/index";\nexport const barrel = accounts;\n',
    });
    expect(run.status).not.toBe(0);
    expect(run.report).toMatch(/table-owner: lib\/streams\/usage\.ts → lib\/db\/schema\/accounts\.ts/);
    expect(run.report).toMatch(/schema-barrel: lib\/watchlist\/list\.ts → lib\/db\/schema\/index\.ts/);
    expect(run.report).not.toMatch(/lib\/auth\/accounts\.ts →/);
  }, 60_000);
});
