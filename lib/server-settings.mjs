// The settings the production server (server.mjs) and next.config.mjs read before the bundle
// loads (PORT, HOST, NEXT_DIST_DIR, HEALTH_PORT, LOG_LEVEL): plain JavaScript, so they can import it without a compiler. lib/config.ts parses PORT
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

/** LOG_LEVEL's values, least severe first (lib/config.ts validates LOG_LEVEL against the same list). */
export const LOG_LEVELS = ["debug", "info", "warn", "error"];

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
  const logLevel = env.LOG_LEVEL?.trim() || "info";
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`Invalid configuration:\n  LOG_LEVEL: must be one of ${LOG_LEVELS.join(", ")}, got ${JSON.stringify(env.LOG_LEVEL)}`);
  // server.mjs's own lines (a client that disconnected) are info: written unless LOG_LEVEL is above it.
  const logsInfo = LOG_LEVELS.indexOf(logLevel) <= LOG_LEVELS.indexOf("info");
  return { port, hostname: env.HOST?.trim() || "0.0.0.0", distDir: nextDistDir(env), healthPort, logsInfo };
}

/** The shortest NEXTAUTH_SECRET accepted: 32 characters (`openssl rand -base64 32` prints 44). */
export const MIN_SECRET_LENGTH = 32;

/**
 * Settings the chosen stores require, checked by server.mjs before it listens (README,
 * "Configuration"): each problem names its variable. On PostgreSQL every instance must sign
 * sessions with one shared NEXTAUTH_SECRET (the embedded setup generates its own into DATA_DIR);
 * a secret that is set is never weak.
 */
export function requiredSettingProblems(env = process.env) {
  const problems = [];
  const secret = env.NEXTAUTH_SECRET?.trim() ?? "";
  const database = env.DATABASE_URL?.trim() ?? "";
  if (secret === "" && database !== "") {
    problems.push("NEXTAUTH_SECRET: required with DATABASE_URL (every instance must sign sessions with the same secret), e.g. export NEXTAUTH_SECRET=$(openssl rand -base64 32)");
  } else if (secret !== "" && secret.length < MIN_SECRET_LENGTH) {
    problems.push(`NEXTAUTH_SECRET: too weak: ${secret.length} characters, at least ${MIN_SECRET_LENGTH} needed (openssl rand -base64 32)`);
  }
  return problems;
}
