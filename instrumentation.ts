// Runs once when a server process starts (next start / next dev), before it serves requests.
// Next compiles this file for the Edge runtime too: everything Node-only sits in
// instrumentation-node.ts, imported only under the Node.js runtime.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startServerProcess } = await import("./instrumentation-node");
    await startServerProcess();
  }
}
