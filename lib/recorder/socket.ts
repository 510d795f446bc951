import WebSocket from "ws";

/** Closes a venue socket cleanly, or terminates it after 1 s; resolves once it is gone. */
export function closeSocket(socket: WebSocket | undefined): Promise<void> {
  if (socket === undefined || socket.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    socket.once("close", () => resolve());
    socket.close();
    setTimeout(() => {
      socket.terminate();
      resolve();
    }, 1_000).unref();
  });
}

/** Reconnect delay of the `attempt`-th retry: exponential from minMs up to maxMs, with half of it jittered. */
export function backoffDelay(attempt: number, minMs: number, maxMs: number): number {
  const ceiling = Math.min(maxMs, minMs * 2 ** attempt);
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}
