import { defineConfig } from "drizzle-kit";

// Generation only needs the schema; migrations are applied by lib/db/migrate.ts at start.
export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/db/schema/index.ts",
  out: "./drizzle",
  casing: "snake_case",
});
