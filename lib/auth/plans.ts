import type { Plan } from "@/lib/config";
import { config } from "@/lib/config";
import { PlanRequiredError } from "@/lib/errors";

export type { Plan };
export const planOrder: readonly Plan[] = ["free", "pro", "enterprise"];

export function isPlan(value: string): value is Plan {
  return (planOrder as readonly string[]).includes(value);
}

/** Requests per minute allowed to one key (or one dashboard session) on a plan. */
export function rateLimitFor(plan: Plan): number {
  return config.rateLimits[plan];
}

export function planAtLeast(plan: Plan, required: Plan): boolean {
  return planOrder.indexOf(plan) >= planOrder.indexOf(required);
}

/** Throws a 403 naming the plan required when `plan` is below it. */
export function assertPlan(plan: Plan, required: Plan, code: "forbidden" | "sql_access_denied" = "forbidden"): void {
  if (!planAtLeast(plan, required)) throw new PlanRequiredError(required, plan, code);
}
