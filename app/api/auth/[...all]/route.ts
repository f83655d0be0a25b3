import { toNextJsHandler } from "better-auth/next-js";
import { errorResponse } from "@/lib/api/route";
import { auth, limitedSignIn } from "@/lib/auth/server";

export const runtime = "nodejs";

const handlers = toNextJsHandler(auth);
export const GET = handlers.GET;
export const POST = (request: Request) => limitedSignIn(request, handlers.POST).catch(errorResponse);
