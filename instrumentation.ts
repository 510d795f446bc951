// Runs once when a server process starts (next start / next dev), before it serves requests.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startBackgroundJobs } = await import("@/lib/jobs/background");
  await startBackgroundJobs();
}
