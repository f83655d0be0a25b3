import { toNextJsHandler } from "better-auth/next-js";
import { errorResponse } from "@/lib/api/route";
import { atConsoleOrigin, auth, limitedSignIn } from "@/lib/identity/auth/server";

export const runtime = "nodejs";

const handlers = toNextJsHandler(auth);
export const GET = (request: Request) => handlers.GET(atConsoleOrigin(request));
export const POST = (request: Request) => limitedSignIn(atConsoleOrigin(request), handlers.POST).catch(errorResponse);
