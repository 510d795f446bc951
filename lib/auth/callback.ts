/** Only same-site paths are followed after sign-in or sign-up (no open redirect through callbackUrl). */
export function safeCallback(value: string | undefined): string {
  return value !== undefined && value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\") ? value : "/";
}
