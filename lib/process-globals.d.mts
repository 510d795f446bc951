declare const keys: {
  readonly __brierDb: string;
  readonly __brierTicks: string;
  readonly __brierLiveBus: string;
  readonly __brierKeyLimits: string;
  readonly __brierLeaseProcessId: string;
  readonly __brierPrincipals: string;
  readonly __brierUsage: string;
  readonly __brierRateLimits: string;
  readonly __brierRateLeases: string;
  readonly __brierKeyWatch: string;
  readonly __brierChannelWatchers: string;
  readonly __brierBookPriceCache: string;
  readonly __brierJobs: string;
  readonly __brierCatalogSchedule: string;
  readonly __brierArchiveSchedule: string;
  readonly __brierSpreadDays: string;
  readonly __brierSpreadDaysAhead: string;
  readonly __brierArchiveBuilds: string;
  readonly __brierAdminChannel: string;
  readonly __brierRecorder: string;
  readonly __brierKalshiRecorder: string;
  readonly __brierHealth: string;
  readonly __brierHealthState: string;
  readonly __brierStartup: string;
  readonly __brierStreamHub: string;
  readonly __brierStreamServer: string;
  readonly __brierStreamUsage: string;
  readonly __brierClientAborts: string;
};
/** Every global slot, by key, with who owns it and why it must be global. */
export declare const PROCESS_GLOBALS: typeof keys;
export type ProcessGlobalKey = keyof typeof keys;
/** The process's globals typed by `Shape`, whose keys must be registered in PROCESS_GLOBALS. */
export declare function processGlobals<Shape extends { [K in keyof Shape]: K extends ProcessGlobalKey ? unknown : never }>(): Shape;
