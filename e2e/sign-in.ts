import { expect, type Page } from "@playwright/test";
import { ANALYST } from "./env";

/** Signs the seeded analyst in on `page` and waits until the dashboard shows the session. */
export async function signInAnalyst(page: Page): Promise<void> {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(ANALYST.email);
  await page.getByLabel("Password").fill(ANALYST.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("plan-badge")).toBeVisible();
}
