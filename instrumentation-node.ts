// The Node.js half of instrumentation.ts: imported only in the Node.js runtime, so the Edge
// compile of instrumentation.ts never sees the Node APIs below (the build's Edge Runtime warning).
export async function startServerProcess(): Promise<void> {
  try {
    // Imported inside the try: an invalid configuration throws while lib/config.ts loads.
    const { startBackgroundJobs } = await import("@/lib/jobs/background");
    await startBackgroundJobs();
    // The admin CLI reaches a server that holds embedded stores through its local channel.
    const { config } = await import("@/lib/config");
    if (config.embeddedPostgres || config.embeddedClickhouse) {
      const { startAdminChannel } = await import("@/lib/operator/channel");
      await startAdminChannel(config.dataDir);
    }
  } catch (error) {
    // A server that cannot read its configuration or own its stores must not stay up answering
    // 500s: it stops at once, saying why. ConfigError and DataDirLockedError
    // carry a message written for the operator; anything else is printed with its stack.
    const name = (error as { name?: unknown }).name;
    const reason = name === "ConfigError" || name === "DataDirLockedError" ? (error as Error).message : String((error as Error).stack ?? error);
    process.stderr.write(`Brier cannot start: ${reason}\n`);
    process.exit(1);
  }
}
