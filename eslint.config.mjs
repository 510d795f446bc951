import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-non-null-assertion": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // API code runs behind server.mjs's front, outside Next's request scope: request-scoped Next
    // APIs would throw there (docs/architecture.md, "No request-scoped Next APIs in API code").
    // Everything a handler needs comes from the Request and the wrapper's context.
    files: ["app/v0/**", "app/api/**", "lib/**"],
    // Page-only modules (server components and server actions run inside Next).
    ignores: ["lib/auth/page-session.ts", "lib/auth/key-actions.ts", "lib/auth/operator-actions.ts", "lib/browser/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "next/headers", message: "headers(), cookies() and draftMode() are request-scoped Next APIs: read the Request instead (docs/architecture.md)." },
            { name: "next/server", importNames: ["after", "connection"], message: "after() and connection() are request-scoped Next APIs: API code runs outside Next's request scope (docs/architecture.md)." },
            { name: "next-auth/next", importNames: ["getServerSession"], message: "getServerSession() reads Next's request scope: API code uses lib/auth/session.ts (docs/architecture.md)." },
            { name: "next-auth", importNames: ["getServerSession"], message: "getServerSession() reads Next's request scope: API code uses lib/auth/session.ts (docs/architecture.md)." },
          ],
          patterns: [
            { group: ["**/page-session", "**/key-actions", "**/operator-actions"], message: "Page-only modules (request-scoped Next APIs) may not be imported by API code (docs/architecture.md)." },
          ],
        },
      ],
    },
  },
  {
    // CommonJS config read by tools that require() it (dependency-cruiser).
    files: ["**/*.cjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    ignores: ["node_modules/**", ".next*/**", ".data/**", "drizzle/**", "test-results/**", "playwright-report/**", "e2e-artifacts/**", "next-env.d.ts", ".scratch*/**"],
  },
];

export default config;
