import { sql } from "drizzle-orm";
import { boolean, check, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const plans = ["free", "pro", "enterprise"] as const;

/** A customer account: who signs in to the dashboard and owns API keys. */
export const accounts = pgTable(
  "accounts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Stored lower-cased and trimmed; the sign-in identity. */
    email: text("email").notNull(),
    name: text("name"),
    /** argon2id hash; null until a password is set (GitHub-only and CLI-created accounts). */
    passwordHash: text("password_hash"),
    githubId: text("github_id"),
    plan: text("plan", { enum: plans }).notNull().default("free"),
    /**
     * May run the service from the dashboard (the Accounts page: every account's plan, keys and
     * password). Only the admin CLI grants it (`admin operator`, `create-key --operator`, the demo).
     */
    operator: boolean("operator").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("accounts_email_idx").on(t.email),
    uniqueIndex("accounts_github_id_idx").on(t.githubId),
    check("accounts_plan_check", sql`${t.plan} in ('free', 'pro', 'enterprise')`),
  ],
);

export type AccountRow = typeof accounts.$inferSelect;
