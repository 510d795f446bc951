/** The `data:` events of a Server-Sent Events body, parsed as JSON, as they arrive (comments and `event:` lines skipped). */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<Record<string, unknown>> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let index: number;
      while ((index = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        const data = block
          .split("\n")
          .filter((line) => line.startsWith("data: "))
          .map((line) => line.slice(6))
          .join("\n");
        if (data !== "") yield JSON.parse(data) as Record<string, unknown>;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** Reads SSE events from a streaming response until `stop` says enough. */
export async function readSseEvents(response: Response, stop: (events: Array<Record<string, unknown>>) => boolean): Promise<Array<Record<string, unknown>>> {
  if (response.body === null) throw new Error("no body");
  const events: Array<Record<string, unknown>> = [];
  if (stop(events)) return events;
  for await (const event of sseEvents(response.body)) {
    events.push(event);
    if (stop(events)) break;
  }
  return events;
}
