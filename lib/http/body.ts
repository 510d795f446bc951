import { ClientClosedRequestError, InvalidBodyError, PayloadTooLargeError } from "@/lib/errors";
import { parseUntrustedJson, TOO_DEEP_MESSAGE } from "@/lib/json";
import { assertNoNulInJson } from "./nul";
import { PRELOADED_BODY, type ApiRequest } from "./reply";

/**
 * Reads a JSON request body, refusing more than `maxBytes` before buffering it all
 * (a Content-Length that lies is caught while streaming).
 */
export async function readJsonBody(request: ApiRequest, maxBytes: number): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) throw new PayloadTooLargeError(maxBytes);
  const contentType = request.headers.get("content-type") ?? "";
  if (contentType !== "" && !/^application\/(json|[\w.+-]+\+json)\b/i.test(contentType)) {
    throw new InvalidBodyError("Content-Type must be application/json.");
  }
  const preloaded = (request as { [PRELOADED_BODY]?: Buffer })[PRELOADED_BODY];
  if (preloaded !== undefined) {
    // Read by the API front already (server.mjs): at most its small-body size, with a Content-Length.
    if (preloaded.byteLength > maxBytes) throw new PayloadTooLargeError(maxBytes);
    return parseJsonText(preloaded.toString("utf8"));
  }
  const body = request.body;
  if (body === null) throw new InvalidBodyError("A JSON request body is required.");

  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (error) {
      // A client that disconnects mid-body (a slow sender giving up) is not a server error.
      if (request.signal.aborted || (error as { code?: unknown }).code === "ECONNRESET") throw new ClientClosedRequestError();
      throw error;
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new PayloadTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return parseJsonText(Buffer.concat(chunks).toString("utf8"));
}

function parseJsonText(text: string): unknown {
  if (text.trim() === "") throw new InvalidBodyError("A JSON request body is required.");
  const parsed = parseUntrustedJson(text);
  if (!parsed.ok) throw new InvalidBodyError(parsed.reason === "depth" ? `The request body: ${TOO_DEEP_MESSAGE}` : "The request body is not valid JSON.");
  assertNoNulInJson(parsed.value);
  return parsed.value;
}
