const bearerPattern = /^Bearer\s+(\S+)\s*$/i;

/**
 * The token of `Authorization: Bearer <token>`, the one place that header is parsed (API keys,
 * the cron secret, the router's call back into the catalog): undefined when no header was sent
 * (or it is blank), null when the header is there but is not a Bearer token.
 */
export function bearerToken(headers: { get(name: string): string | null }): string | null | undefined {
  const header = headers.get("authorization");
  if (header === null || header.trim() === "") return undefined;
  return bearerPattern.exec(header)?.[1] ?? null;
}
