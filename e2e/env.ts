/** Where the e2e server listens, and the account e2e/serve.ts seeds (enterprise plan, for the SQL surface). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3400);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const ANALYST = { email: "analyst@brier.test", password: "e2e-analyst-password" } as const;
/** An operator account e2e/serve.ts seeds (the Review and Accounts pages are 404 to everyone else). */
export const OPERATOR = { email: "operator@brier.test", password: "e2e-operator-password" } as const;
/** Where e2e/first-ten-minutes.spec.ts runs `npm run demo` (its own server beside the seeded one). */
export const DEMO_PORT = E2E_PORT + 8;
