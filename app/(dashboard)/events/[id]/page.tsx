import type { Metadata } from "next";
import { EventView } from "@/components/event/event-view";
import { requireAccount } from "@/lib/auth/page-session";
import { getEventOrThrow } from "@/lib/catalog/resolve";
import { getDb } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import { notFound } from "next/navigation";

export const metadata: Metadata = { title: "Event" };

// Event page: the event with its markets, from GET /v0/events/{id}.
export default async function EventPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requireAccount(`/events/${encodeURIComponent(id)}`);
  // An id no event answers to is a 404 page (./not-found.tsx).
  await getEventOrThrow(await getDb(), id).catch((error: unknown) => {
    if (error instanceof NotFoundError) notFound();
    throw error;
  });
  return <EventView id={id} />;
}
