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
    if ((cells.length !== 4 && cells.length !== 5) || !cells[0].startsWith("`lib/")) continue;
    const [name, layer, , imports, owns = ""] = cells;
    if (!LAYERS.includes(layer)) throw new Error(`docs/architecture.md: unknown layer "${layer}" for ${name}`);
    const folder = layer === "base" ? "base" : /^`lib\/([a-z0-9-]+)\/`$/.exec(name)?.[1];
    if (folder === undefined) throw new Error(`docs/architecture.md: cannot read the folder of ${name}`);
    const listed = [...imports.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1]);
    const tables = [...owns.matchAll(/`([a-z0-9_]+)`/g)].map((m) => m[1]);
    folders.set(folder, { layer, imports: listed, owns: tables });
  }
  if (folders.size === 0) throw new Error("docs/architecture.md: the layer table has no rows");
  return { folders, layers: LAYERS };
}

/**
 * Who owns each table (the layer map's "owns" column) and which schema module defines it
 * (lib/db/schema/*.ts, one module per table or per owner's group of tables), plus the crossings
 * still to move (docs/architecture.md, "Tables read outside their owner"): folder -> tables.
 * @returns {{ modules: Map<string, { owner: string | undefined, tables: string[] }>, owners: Map<string, string>, crossings: Array<{ folder: string, table: string }> }}
 */
function readTableOwners(root = path.join(__dirname, "..", "..")) {
  const { folders } = readLayerMap(root);
  const owners = new Map();
  for (const [folder, { owns }] of folders) {
    for (const table of owns) {
      if (owners.has(table)) throw new Error(`docs/architecture.md: table ${table} has two owners (${owners.get(table)}, ${folder})`);
      owners.set(table, folder);
    }
  }
  const modules = new Map();
  const schemaDir = path.join(root, "lib", "db", "schema");
  const files = fs.existsSync(schemaDir) ? fs.readdirSync(schemaDir).filter((f) => f.endsWith(".ts") && f !== "index.ts" && !f.includes(".test.")) : [];
  for (const file of files.sort()) {
    const tables = [...fs.readFileSync(path.join(schemaDir, file), "utf8").matchAll(/pgTable\(\s*"([a-z0-9_]+)"/g)].map((m) => m[1]);
    const moduleOwners = [...new Set(tables.map((table) => owners.get(table)))];
    if (moduleOwners.length > 1) throw new Error(`lib/db/schema/${file} defines tables of several owners (${moduleOwners.join(", ")}): one module per owner`);
    modules.set(file.replace(/\.ts$/, ""), { owner: moduleOwners[0], tables });
  }
  const doc = fs.readFileSync(path.join(root, "docs", "architecture.md"), "utf8");
  const crossings = [];
  const start = doc.indexOf("\n### Tables read outside their owner");
  if (start >= 0) {
    const end = doc.indexOf("\n#", start + 1);
    for (const line of doc.slice(start, end < 0 ? undefined : end).split("\n")) {
      const cells = line.split("|").slice(1, -1).map((cell) => cell.trim());
      const folder = /^`lib\/([a-z0-9-]+)\/`$/.exec(cells[0] ?? "")?.[1];
      if (folder === undefined || cells.length < 2) continue;
      for (const m of cells[1].matchAll(/`([a-z0-9_]+)`/g)) crossings.push({ folder, table: m[1] });
    }
  }
  return { modules, owners, crossings };
}

module.exports = { readLayerMap, readTableOwners, LAYERS };
