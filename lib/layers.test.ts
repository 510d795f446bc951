import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The map of lib/ in docs/architecture.md ("Layers and folders") checked against the tree; the
// same parser feeds the lint rules (.dependency-cruiser.cjs), so the map is also what is enforced.
const require = createRequire(import.meta.url);
const { readLayerMap, LAYERS } = require("../scripts/lint/layer-map.cjs") as {
  readLayerMap: (root?: string) => { folders: Map<string, { layer: string; imports: string[] }> };
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
