export declare function healthAnswer(path: string, state: Float64Array, now?: number): { status: number; body: Record<string, unknown> };
export declare function startHealthPort(options: { port: number; host?: string }): Promise<{ port: number; state: Float64Array; close(): Promise<void> }>;
