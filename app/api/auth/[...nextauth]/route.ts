import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/next-auth";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ nextauth: string[] }> };

// next-auth's own endpoints (sign-in, callback, session, CSRF, sign-out)
async function handler(request: Request, context: Context): Promise<Response> {
  return NextAuth(request as never, context as never, authOptions()) as Promise<Response>;
}

export { handler as GET, handler as POST };
