/** Where the e2e server listens, and the account e2e/serve.ts seeds (enterprise plan, for the SQL surface). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3400);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const ANALYST = { email: "analyst@brier.test", password: "e2e-analyst-password" } as const;
