"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getSessionAccount } from "@/lib/auth/page-session";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";
import { importReviews, reviewPair, reviewVerdicts } from "@/lib/matching/reviews";

// Server actions of the operator's Review page; each checks the operator again, on the server, from the database.

export type ReviewResult = { ok: true; message: string } | { ok: false; message: string };

const notAllowed = "Only an operator can review pairs: sign in again as one.";

const reviewInput = z.object({
  pair: z.string().regex(/^[0-9a-f-]{36}\|[0-9a-f-]{36}$/, "pair must be two market ids"),
  verdict: z.enum(reviewVerdicts),
  reason: z.string().max(500, "reason must be at most 500 characters"),
});

export async function reviewAction(pair: string, verdict: string, reason: string): Promise<ReviewResult> {
  const operator = await getSessionAccount();
  if (operator?.operator !== true) return { ok: false, message: notAllowed };
  const parsed = reviewInput.safeParse({ pair, verdict, reason });
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? "Not a review." };
  const [marketA = "", marketB = ""] = parsed.data.pair.split("|");
  try {
    await reviewPair(await getDb(), { marketA, marketB, verdict: parsed.data.verdict, reason: parsed.data.reason, reviewer: operator.email });
  } catch (error) {
    if (error instanceof AppError) return { ok: false, message: error.message };
    log.error("review: storing a review failed", errorFields(error));
    return { ok: false, message: "The review was not stored. Try again." };
  }
  revalidatePath("/review");
  return { ok: true, message: `${parsed.data.verdict === "confirmed" ? "Confirmed" : "Rejected"}: ${parsed.data.reason}` };
}

export async function importAction(_previous: ReviewResult | undefined, form: FormData): Promise<ReviewResult> {
  const operator = await getSessionAccount();
  if (operator?.operator !== true) return { ok: false, message: notAllowed };
  const file = form.get("file");
  const text = file instanceof File ? await file.text() : typeof form.get("text") === "string" ? String(form.get("text")) : "";
  if (text.trim() === "") return { ok: false, message: "Choose a JSON Lines file of reviews (the export's format)." };
  if (text.length > 5_000_000) return { ok: false, message: "The file is larger than 5 MB." };
  try {
    const summary = await importReviews(await getDb(), text, operator.email);
    revalidatePath("/review");
    return { ok: true, message: `Imported ${summary.imported} review${summary.imported === 1 ? "" : "s"}${summary.unknownMarkets > 0 ? `; ${summary.unknownMarkets} named markets this store does not list (skipped)` : ""}.` };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, message: error.message };
    log.error("review: import failed", errorFields(error));
    return { ok: false, message: "The import did not complete. Try again." };
  }
}
