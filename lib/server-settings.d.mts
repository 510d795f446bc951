export declare function parsePort(raw: string | undefined): number | undefined;
export declare function nextDistDir(env?: Record<string, string | undefined>): string;
export declare function serverSettings(env?: Record<string, string | undefined>): { port: number; hostname: string; distDir: string; healthPort: number | undefined; logsInfo: boolean };
export declare const LOG_LEVELS: readonly ["debug", "info", "warn", "error"];
export declare const MIN_SECRET_LENGTH: number;
export declare function requiredSettingProblems(env?: Record<string, string | undefined>): string[];
