export type Surface = "v0" | "api";
export declare const INTERNAL_ERROR_MESSAGE: string;
export declare function surfaceOf(pathname: string): Surface;
export declare function v0ErrorBody(code: string, message: string, details?: Record<string, unknown>): { error: Record<string, unknown> };
export declare function apiErrorBody(
  code: string,
  message: string,
  retryable: boolean,
  exchange: string | undefined,
): { success: false; error: { code: string; message: string; retryable: boolean; exchange?: string } };
export declare function internalErrorBody(surface: Surface, requestId: string): Record<string, unknown>;
