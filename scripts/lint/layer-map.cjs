// The layer map of lib/ as docs/architecture.md states it ("Layers and folders"), read by
// .dependency-cruiser.cjs (the rules `npm run lint` enforces) and by lib/layers.test.ts (the map
// checked against the tree). One parser, so the doc, the lint and the test cannot disagree.
const fs = require("node:fs");
const path = require("node:path");

const LAYERS = ["base", "infrastructure", "domain", "jobs"];

/**
 * @returns {{ folders: Map<string, { layer: string, imports: string[] }>, layers: string[] }}
 *   one entry per `lib/<folder>/` row (the base row is "base"); imports name folders only
 *   (every folder may import the base).
 */
function readLayerMap(root = path.join(__dirname, "..", "..")) {
  const doc = fs.readFileSync(path.join(root, "docs", "architecture.md"), "utf8");
  const start = doc.indexOf("\n## Layers and folders");
  if (start < 0) throw new Error('docs/architecture.md has no "## Layers and folders" section');
  const end = doc.indexOf("\n## ", start + 1);
  const section = doc.slice(start, end < 0 ? undefined : end);
  const folders = new Map();
  for (const line of section.split("\n")) {
    const cells = line.split("|").slice(1, -1).map((cell) => cell.trim());
    if (cells.length !== 4 || !cells[0].startsWith("`lib/")) continue;
    const [name, layer, , imports] = cells;
    if (!LAYERS.includes(layer)) throw new Error(`docs/architecture.md: unknown layer "${layer}" for ${name}`);
    const folder = layer === "base" ? "base" : /^`lib\/([a-z0-9-]+)\/`$/.exec(name)?.[1];
    if (folder === undefined) throw new Error(`docs/architecture.md: cannot read the folder of ${name}`);
    const listed = [...imports.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1]);
    folders.set(folder, { layer, imports: listed });
  }
  if (folders.size === 0) throw new Error("docs/architecture.md: the layer table has no rows");
  return { folders, layers: LAYERS };
}

module.exports = { readLayerMap, LAYERS };
