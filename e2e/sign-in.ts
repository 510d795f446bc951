import { expect, type Page } from "@playwright/test";
import { ANALYST } from "./env";

/** Signs the seeded analyst in on `page` and waits until the dashboard shows the session. */
export async function signInAnalyst(page: Page): Promise<void> {
  await signInAs(page, ANALYST);
}

/** Signs `account` in on `page` and waits until the dashboard shows the session. */
export async function signInAs(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("plan-badge")).toBeVisible();
}
