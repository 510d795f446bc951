// Imports in lib/ point one way (docs/architecture.md, "Layers and folders"): the table there is
// read here, so an import that its folder's row does not list fails `npm run lint`.
const { readLayerMap, readTableOwners } = require("./scripts/lint/layer-map.cjs");

const { folders } = readLayerMap(__dirname);
const folderNames = [...folders.keys()].filter((name) => name !== "base");
const byLayer = (layer) => folderNames.filter((name) => folders.get(name).layer === layer);
const dirs = (names) => `^lib/(${names.join("|")})/`;
/** Tests sit beside the code but belong to the app layer: they may reach across (fixtures, helpers). */
const TEST = "\\.test\\.tsx?$";
const ROOT_MODULE = "^lib/[^/]+\\.(ts|mts|mjs|js|tsx)$";

/** One rule per folder: it may import itself, the base and the folders its row lists, nothing else of lib/. */
const perFolder = folderNames.map((name) => {
  const allowed = [name, ...folders.get(name).imports];
  return {
    name: "not-in-layer-map",
    comment: `lib/${name}/ may import only ${allowed.join(", ")} and the base (docs/architecture.md, "Layers and folders")`,
    severity: "error",
    from: { path: `^lib/${name}/`, pathNot: TEST },
    to: { path: "^lib/[^/]+/", pathNot: dirs(allowed) },
  };
});

/**
 * One rule per schema module: only its tables' owner (the "owns" column) and lib/db import it;
 * other folders go through the owner's functions. The crossings still to move are listed in
 * docs/architecture.md ("Tables read outside their owner") and pass until they are moved.
 */
const { modules, crossings } = readTableOwners(__dirname);
const perTable = [...modules].map(([file, { owner, tables }]) => {
  const crossing = crossings.filter((c) => tables.includes(c.table)).map((c) => c.folder);
  const allowed = ["db", ...(owner === undefined ? [] : [owner]), ...crossing];
  return {
    name: "table-owner",
    comment: `${tables.join(", ")} belong to ${owner === undefined ? "no folder yet (name its owner in the layer map's owns column)" : `lib/${owner}/`}: other folders use the owner's functions (docs/architecture.md, "Layers and folders")`,
    severity: "error",
    from: { path: "^lib/", pathNot: [TEST, dirs(allowed)] },
    to: { path: `^lib/db/schema/${file}\\.ts$` },
  };
});

module.exports = {
  forbidden: [
    {
      name: "schema-barrel",
      comment: "Outside lib/db, a table is imported from its own schema module (lib/db/schema/<table>.ts), never from the barrel, so its owner can be checked.",
      severity: "error",
      from: { path: "^lib/", pathNot: [TEST, "^lib/db/"] },
      to: { path: "^lib/db/schema/index\\.ts$" },
    },
    ...perTable,
    {
      name: "no-circular",
      comment: "No import cycle between files (docs/architecture.md, \"Layers and folders\").",
      severity: "error",
      from: { path: "^(lib|app|components|scripts)/" },
      to: { circular: true },
    },
    {
      name: "lib-imports-app",
      comment: "lib/ never imports the app layer (app/, components/, scripts/, test/, e2e/).",
      severity: "error",
      from: { path: "^lib/", pathNot: TEST },
      to: { path: "^(app|components|scripts|test|e2e)/" },
    },
    {
      name: "base-imports-folder",
      comment: "The base (lib/*.ts) imports only the base.",
      severity: "error",
      from: { path: ROOT_MODULE, pathNot: TEST },
      to: { path: "^lib/[^/]+/" },
    },
    {
      name: "infrastructure-imports-up",
      comment: "Infrastructure imports only infrastructure and the base.",
      severity: "error",
      from: { path: dirs(byLayer("infrastructure")), pathNot: TEST },
      to: { path: dirs([...byLayer("domain"), ...byLayer("jobs")]) },
    },
    {
      name: "domain-imports-jobs",
      comment: "A domain never imports lib/jobs: jobs wire domains together, not the other way.",
      severity: "error",
      from: { path: dirs(byLayer("domain")), pathNot: TEST },
      to: { path: dirs(byLayer("jobs")) },
    },
    ...perFolder,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|\\.next[^/]*|\\.data|e2e-artifacts)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".mts", ".mjs", ".js", ".cjs", ".d.mts", ".d.ts"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
