import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";

/** Current and peak resident set size of a process, in MB, from /proc (Linux); undefined elsewhere. */
export function processMemory(pid: number): { rssMb: number; peakMb: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
    const rss = kb("VmRSS");
    const peak = kb("VmHWM");
    if (!Number.isFinite(rss) || !Number.isFinite(peak)) return undefined;
    return { rssMb: Math.round(rss / 1024), peakMb: Math.round(peak / 1024) };
  } catch {
    return undefined;
  }
}

/**
 * The memory line every bench prints: the bench process's own peak RSS and, for each server it
 * started, the RSS at the end of the load (steady under load) and its peak.
 */
export function memoryReport(servers: ReadonlyArray<{ label: string; pid: number | undefined }> = []): string {
  const parts = [`bench process peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`];
  for (const server of servers) {
    const memory = server.pid === undefined ? undefined : processMemory(server.pid);
    parts.push(
      memory === undefined
        ? `${server.label}: RSS unavailable`
        : `${server.label} RSS ${memory.rssMb} MB after the load (peak ${memory.peakMb} MB)`,
    );
  }
  return `memory: ${parts.join("; ")}`;
}

/** The machine's load average (1, 5, 15 min) and core count: how noisy this run's figures are. */
export function loadLine(when: string): string {
  const [one, five, fifteen] = loadavg();
  return `load average ${when}: ${one?.toFixed(2)} ${five?.toFixed(2)} ${fifteen?.toFixed(2)} on ${cpus().length} cores`;
}

/**
 * CPU time (user + system) a process has used so far, in ms, from /proc (Linux). Divided by the
 * requests served in between, it is the CPU cost per request: unlike latency and req/s it barely
 * moves when other work loads the machine, so it compares two servers fairly on a shared machine.
 */
export function processCpuMs(pid: number | undefined): number | undefined {
  const times = processCpuTimesMs(pid);
  return times === undefined ? undefined : times.user + times.system;
}

/** `processCpuMs` split: user and system (kernel: syscalls, page faults) time in ms. */
export function processCpuTimesMs(pid: number | undefined): { user: number; system: number } | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    if (!Number.isFinite(utime) || !Number.isFinite(stime)) return undefined;
    return { user: (utime * 1000) / CLOCK_TICKS_PER_SECOND, system: (stime * 1000) / CLOCK_TICKS_PER_SECOND };
  } catch {
    return undefined;
  }
}

/** USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK). */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * A process's resident set by mapping, in MB, from /proc/<pid>/smaps (Linux): the file-backed
 * pages of each library group (chDB's, the node binary, the rest) and the anonymous memory (V8's
 * heap, WebAssembly memories and malloc arenas are all anonymous; `process.memoryUsage()` splits
 * them). Undefined where /proc is not readable.
 */
export function residentByMapping(pid: number): Record<string, number> | undefined {
  let smaps: string;
  try {
    smaps = readFileSync(`/proc/${pid}/smaps`, "utf8");
  } catch {
    return undefined;
  }
  const kb: Record<string, number> = {};
  let group = "anonymous";
  for (const line of smaps.split("\n")) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (mapping !== null) {
      group = mappingGroup(mapping[1] ?? "");
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss !== null) kb[group] = (kb[group] ?? 0) + Number(rss[1]);
  }
  return Object.fromEntries(Object.entries(kb).map(([name, value]) => [name, Math.round(value / 102.4) / 10]));
}

/** Which part of the process a /proc/<pid>/smaps mapping name belongs to. */
export function mappingGroup(name: string): string {
  if (name === "" || name.startsWith("[anon") || name === "[heap]") return "anonymous";
  if (name.startsWith("[")) return "other";
  if (/chdb/i.test(name)) return "chDB library";
  if (/\/node$|\/nodejs$/.test(name)) return "node binary";
  if (/\.so(\.|$)/.test(name)) return "other libraries";
  return "other files";
}
