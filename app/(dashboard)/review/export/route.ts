import { getSessionAccount } from "@/lib/auth/page-session";
import { getDb } from "@/lib/db";
import { exportReviews } from "@/lib/matching/reviews";

// GET /review/export: every review as JSON Lines (operators only; 404 for everyone else, as the page).
export async function GET(): Promise<Response> {
  const operator = await getSessionAccount();
  if (operator?.operator !== true) return new Response("Not found", { status: 404 });
  const body = await exportReviews(await getDb());
  return new Response(body, {
    headers: { "content-type": "application/x-ndjson; charset=utf-8", "content-disposition": `attachment; filename="brier-match-reviews-${new Date().toISOString().slice(0, 10)}.jsonl"`, "cache-control": "no-store" },
  });
}
