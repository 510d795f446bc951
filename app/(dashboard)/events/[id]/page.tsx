import type { Metadata } from "next";
import { EventView } from "@/components/event/event-view";
import { requireAccount } from "@/lib/auth/page-session";

export const metadata: Metadata = { title: "Event" };

// Event page: the event with its markets, from GET /v0/events/{id}.
export default async function EventPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requireAccount(`/events/${encodeURIComponent(id)}`);
  return <EventView id={id} />;
}
