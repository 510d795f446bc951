// The settings the production server (server.mjs) and next.config.mjs read before the bundle
// loads (PORT, HOST, NEXT_DIST_DIR, HEALTH_PORT): plain JavaScript, so they can import it without a compiler. lib/config.ts parses PORT
// with the same function, so each variable has one reading; everything else is lib/config.ts's.

/** PORT as a TCP port (1–65535), 3000 when unset; undefined when the text is not a port. */
export function parsePort(raw) {
  if (raw === undefined || raw.trim() === "") return 3000;
  if (!/^\d{1,5}$/.test(raw.trim())) return undefined;
  const port = Number(raw.trim());
  return port >= 1 && port <= 65535 ? port : undefined;
}

/** Next's output folder: NEXT_DIST_DIR (a bench or a parallel build uses its own), default `.next`. */
export function nextDistDir(env = process.env) {
  return env.NEXT_DIST_DIR?.trim() || ".next";
}

/**
 * Where the server listens, which build it serves, and the health port (HEALTH_PORT: liveness and
 * readiness from a worker thread, lib/status/health-port.mjs; unset: none). Throws naming a bad variable.
 */
export function serverSettings(env = process.env) {
  const port = parsePort(env.PORT);
  if (port === undefined) throw new Error(`Invalid configuration:\n  PORT: must be a TCP port (1–65535), got ${JSON.stringify(env.PORT)}`);
  const healthPort = env.HEALTH_PORT === undefined || env.HEALTH_PORT.trim() === "" ? undefined : parsePort(env.HEALTH_PORT);
  if (healthPort === undefined && env.HEALTH_PORT !== undefined && env.HEALTH_PORT.trim() !== "") {
    throw new Error(`Invalid configuration:\n  HEALTH_PORT: must be a TCP port (1–65535), got ${JSON.stringify(env.HEALTH_PORT)}`);
  }
  if (healthPort === port) throw new Error("Invalid configuration:\n  HEALTH_PORT: must differ from PORT");
  return { port, hostname: env.HOST?.trim() || "0.0.0.0", distDir: nextDistDir(env), healthPort };
}
