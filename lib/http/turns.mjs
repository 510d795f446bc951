// Requests start one per turn of the event loop (docs/architecture.md, "The embedded engines and the
// request thread"). Node parses every request that arrived since the last turn and would run all
// their handlers back to back in that turn; on the embedded default most of a handler is PGlite
// running synchronously, so a burst of 200 requests made one turn of seconds, and a health probe or
// a finished chDB read arriving meanwhile waited for all of it. Queued here instead, a request
// starts in a turn of its own (a setImmediate callback, with its synchronous chain of PGlite
// statements in that callback's microtasks), and between two of them the loop polls: new
// connections are accepted, finished reads answered, probes served. The queue is bounded: past
// `limit` waiting, a request is refused at once (503, Retry-After) rather than held in memory.
// Plain JavaScript: server.mjs runs outside the bundle.
import { apiErrorBody, v0ErrorBody } from "./error-body.mjs";

/**
 * A FIFO of work started one piece per event-loop turn. `push` returns false (and queues nothing)
 * when `limit` pieces already wait.
 */
export function createTurnQueue({ limit }) {
  const waiting = [];
  let head = 0;
  let scheduled = false;
  let refused = 0;
  const step = () => {
    scheduled = false;
    if (head >= waiting.length) return;
    const job = waiting[head];
    waiting[head] = undefined;
    head += 1;
    if (head >= waiting.length) {
      waiting.length = 0;
      head = 0;
    } else {
      // Under a load that never lets the queue drain, the started pieces' slots are dropped in one
      // step once they are most of the array, so its length stays within twice what waits.
      if (head > 1024 && head * 2 > waiting.length) {
        waiting.splice(0, head);
        head = 0;
      }
      // Scheduled from a check phase, it runs in the next turn, after that turn's poll.
      scheduled = true;
      setImmediate(step);
    }
    job();
  };
  return {
    push(job) {
      if (waiting.length - head >= limit) {
        refused += 1;
        return false;
      }
      waiting.push(job);
      if (!scheduled) {
        scheduled = true;
        setImmediate(step);
      }
      return true;
    },
    /** Pieces waiting to start, and how many were refused since the queue was made. */
    stats: () => ({ waiting: waiting.length - head, refused }),
  };
}

/** The answer to a request the full queue refused: 503 with Retry-After, in the surface's error body. */
export function refuseAtCapacity(surface, res) {
  const message = "The server is at capacity; retry shortly.";
  const body = surface === "v0" ? v0ErrorBody("service_unavailable", message, { retryAfter: 1 }) : apiErrorBody("EXCHANGE_NOT_AVAILABLE", message, true);
  res.writeHead(503, { "content-type": "application/json", "cache-control": "no-store", "retry-after": "1" });
  res.end(JSON.stringify(body));
}
