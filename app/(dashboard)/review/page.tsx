import type { Metadata } from "next";
import { ReviewQueue } from "@/components/matching/review-queue";
import { requireOperator } from "@/lib/auth/operator-actions";
import { getDb } from "@/lib/db";
import { reviewQueue } from "@/lib/matching/reviews";
import { importAction, reviewAction } from "./actions";

export const metadata: Metadata = { title: "Review" };
export const dynamic = "force-dynamic";

// Review (operators only; 404 for everyone else): the verified tier's queue (docs/matching.md, "Review queue").
export default async function ReviewPage() {
  const operator = await requireOperator("/review");
  const items = await reviewQueue(await getDb(), 100);
  return (
    <div className="stack">
      <h1>Review</h1>
      <p className="muted">
        Pairs waiting for a person: pairs whose markets resolved differently, then every identity not yet reviewed, then pairs in the uncertain band. Read both rules; press{" "}
        <kbd>y</kbd> to confirm (same contract), <kbd>1</kbd> rules differ, <kbd>2</kbd> another question, <kbd>3</kbd> another date or number (each rejects), <kbd>j</kbd>/<kbd>k</kbd> to move.
        A confirmed pair is served as <code>verified: true</code>. Signed in as {operator.email}. <a href="/review/export">Export every review (JSON Lines)</a>
      </p>
      <ReviewQueue items={items} actions={{ review: reviewAction, importReviews: importAction }} />
    </div>
  );
}
