import "server-only";
import { processGlobals } from "@/lib/process-globals.mjs";

/**
 * PostgreSQL's notifications (LISTEN/NOTIFY) for a cache that must drop what a commit changed, on
 * every instance: a channel is watched on a connection of its own, and the watcher is told when the
 * LISTEN is in place and when the connection is gone (notifications sent meanwhile are lost, so a
 * cache built on them must not be used until the next `onListening`, and must drop everything then).
 */
export interface ChannelHandlers {
  /** A notification on the channel arrived. */
  onNotify(payload: string): void;
  /** The LISTEN is in place (again): anything sent before this was not seen. */
  onListening(): void;
  /** The connection is gone or never came up: notifications are being missed until the next `onListening`. */
  onLost(): void;
}

export interface ChannelWatch {
  /** True while the LISTEN is in place on a live connection. */
  readonly live: boolean;
  close(): Promise<void>;
}

type Watcher = (channel: string, handlers: ChannelHandlers) => ChannelWatch;

// On globalThis: the handle is opened by whichever bundle asks first (instrumentation, a route), and
// every route bundle has its own copy of this module (lib/process-globals.mjs, "bundles").
// Keyed by the drizzle handle (lib/db/client.ts's Db: not imported, client.ts imports this module).
const globalStore = processGlobals<{ __brierChannelWatchers?: WeakMap<object, Watcher> }>();
const watchers = (globalStore.__brierChannelWatchers ??= new WeakMap());

/** Registers how `db`'s channels are watched (lib/db/client.ts, on PostgreSQL only). */
export function registerChannelWatcher(db: object, watcher: Watcher): void {
  watchers.set(db, watcher);
}

/** Watches `channel` of `db`'s database; undefined where there are no notifications to watch (PGlite: one process owns it). */
export function watchChannel(db: object, channel: string, handlers: ChannelHandlers): ChannelWatch | undefined {
  return watchers.get(db)?.(channel, handlers);
}

/** How long a lost connection waits before it tries to LISTEN again. */
const RELISTEN_MS = 1_000;
/**
 * A connection that dies without a word (a dropped route, a frozen peer) closes nothing until TCP's
 * keepalive gives up, minutes later: the listening connection answers a `select 1` every second, and
 * one not answered within two is taken as lost (notifications are sent ahead of a command's answer,
 * so an answered beat also says that nothing committed before it is still on its way).
 */
const BEAT_MS = 1_000;
const BEAT_DEADLINE_MS = 2_000;

/**
 * A watcher over postgres.js: one connection per channel, never recycled by age or idleness
 * (postgres.js would otherwise close it every 30-60 minutes), re-established a second after a loss.
 */
export function postgresChannelWatcher(url: string): Watcher {
  return (channel, handlers) => {
    let live = false;
    let closed = false;
    let client: { unsafe: (text: string) => Promise<unknown>; end: (options: { timeout: number }) => Promise<void> } | undefined;
    let retry: NodeJS.Timeout | undefined;
    let beat: NodeJS.Timeout | undefined;
    const quoted = `"${channel.replace(/"/g, '""')}"`;

    const lost = (from: unknown) => {
      if (from !== client) return;
      live = false;
      client = undefined;
      if (beat !== undefined) clearInterval(beat);
      beat = undefined;
      handlers.onLost();
      void (from as { end: (options: { timeout: number }) => Promise<void> } | undefined)?.end({ timeout: 0 }).catch(() => undefined);
      if (!closed && retry === undefined) {
        retry = setTimeout(() => {
          retry = undefined;
          void connect();
        }, RELISTEN_MS);
        retry.unref();
      }
    };

    const connect = async () => {
      if (closed) return;
      const { default: postgres } = await import("postgres");
      // Closed while the driver loaded: open nothing (close() had no connection to end).
      if (closed) return;
      const own: { current?: typeof client } = {};
      const created = postgres(url, {
        max: 1,
        idle_timeout: 0,
        max_lifetime: null,
        connect_timeout: 10,
        fetch_types: false,
        onnotice: () => undefined,
        onnotify: (name: string, payload: string) => {
          if (name === channel && own.current === client) handlers.onNotify(payload);
        },
        onclose: () => lost(own.current),
      } as Parameters<typeof postgres>[1]);
      own.current = created;
      client = created;
      try {
        await created.unsafe(`listen ${quoted}`);
      } catch {
        lost(created);
        return;
      }
      if (client !== created || closed) return;
      live = true;
      handlers.onListening();
      let waiting = false;
      beat = setInterval(() => {
        if (waiting) return;
        waiting = true;
        const deadline = setTimeout(() => lost(created), BEAT_DEADLINE_MS);
        deadline.unref();
        created
          .unsafe("select 1")
          .then(
            () => clearTimeout(deadline),
            () => {
              clearTimeout(deadline);
              lost(created);
            },
          )
          .finally(() => {
            waiting = false;
          });
      }, BEAT_MS);
      beat.unref();
    };

    void connect();
    return {
      get live() {
        return live;
      },
      async close() {
        closed = true;
        live = false;
        if (retry !== undefined) clearTimeout(retry);
        if (beat !== undefined) clearInterval(beat);
        const current = client;
        client = undefined;
        await current?.end({ timeout: 0 });
      },
    };
  };
}
