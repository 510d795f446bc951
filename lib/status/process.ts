/**
 * When this process started: the status page's "up since". Taken from the process's own uptime,
 * so it is the start of the server, not the first time a module asked for it.
 */
export function processStartedAt(): Date {
  return new Date(Math.round((Date.now() - process.uptime() * 1000) / 1000) * 1000);
}
