/** What the sign-up server action answers the form (plain data: it crosses the server/client boundary). */
export type SignUpState =
  | { status: "idle" }
  | { status: "error"; field: "email" | "password" | undefined; message: string; values: { email: string; name: string } }
  | { status: "created"; email: string; password: string };
