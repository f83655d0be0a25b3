import { withPublic } from "@/lib/api/route";
import { signInOptions } from "@/lib/identity/sso/server";

export const runtime = "nodejs";

// GET /api/v1/sso – the identity providers the sign-in page offers ("Sign in with <name>")
export const GET = withPublic(async () => signInOptions());
