/** Calls an exported route handler in-process, the way Next would (routes are thin, so their tests call the exported handler; docs/architecture.md). */
export type RouteHandler<P> = (request: Request, route: { params: Promise<P> }) => Promise<Response>;

export interface CallOptions<P> {
  method?: string;
  path: string;
  key?: string;
  headers?: Record<string, string>;
  body?: unknown;
  params?: P;
}

export async function callRoute<P = Record<string, never>>(
  handler: RouteHandler<P>,
  options: CallOptions<P>,
): Promise<{ status: number; headers: Headers; body: unknown; text: string }> {
  const headers = new Headers(options.headers);
  if (options.key !== undefined) headers.set("authorization", `Bearer ${options.key}`);
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const request = new Request(new URL(options.path, "http://localhost:3000"), {
    method: options.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    body,
  });
  const response = await handler(request, { params: Promise.resolve(options.params ?? ({} as P)) });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON (CSV, Parquet): keep the text.
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}
