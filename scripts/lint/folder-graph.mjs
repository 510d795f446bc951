// `npm run deps:graph`: the folder-level import graph of lib/ (type imports included, tests left
// out) and its cycles, from dependency-cruiser's own resolution. The base (lib/*.ts) is one node.
import { cruise } from "dependency-cruiser";

const folderOf = (file) => {
  const match = /^lib\/([^/]+)\//.exec(file);
  if (match) return match[1];
  return /^lib\/[^/]+$/.test(file) ? "base" : undefined;
};

const result = await cruise(["lib"], {
  tsPreCompilationDeps: true,
  tsConfig: { fileName: "tsconfig.json" },
  exclude: { path: "\\.test\\.tsx?$" },
  doNotFollow: { path: "node_modules" },
});
const edges = new Map();
for (const cruised of result.output.modules) {
  const from = folderOf(cruised.source);
  if (from === undefined) continue;
  if (!edges.has(from)) edges.set(from, new Set());
  for (const dependency of cruised.dependencies) {
    const to = folderOf(dependency.resolved);
    if (to !== undefined && to !== from) edges.get(from).add(to);
  }
}

// Tarjan's strongly connected components: every component of more than one folder is a cycle.
let index = 0;
const order = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];
const visit = (node) => {
  order.set(node, index);
  low.set(node, index);
  index += 1;
  stack.push(node);
  onStack.add(node);
  for (const next of edges.get(node) ?? []) {
    if (!order.has(next)) {
      visit(next);
      low.set(node, Math.min(low.get(node), low.get(next)));
    } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), order.get(next)));
  }
  if (low.get(node) === order.get(node)) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) cycles.push(component.sort());
  }
};
for (const node of edges.keys()) if (!order.has(node)) visit(node);

for (const [from, to] of [...edges].sort(([a], [b]) => a.localeCompare(b))) {
  console.log(`${from.padEnd(12)} -> ${[...to].sort().join(" ")}`);
}
console.log(cycles.length === 0 ? "cycles: none" : `cycles: ${cycles.map((c) => c.join(" <-> ")).join("; ")}`);
process.exitCode = cycles.length === 0 ? 0 : 1;
