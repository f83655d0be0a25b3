import { z } from "zod";
import { AUTH_MODES, CLIENT_AUTHS, KEY_ALGS } from "./index";

export const AuthModeSchema = z.enum(AUTH_MODES);
export const ClientAuthSchema = z.enum(CLIENT_AUTHS);
export const KeyAlgSchema = z.enum(KEY_ALGS);

/** `POST /api/v1/servers/:id/oauth/authorize` body: an optional larger scope (step-up). */
export const AuthorizeSchema = z.object({ scope: z.string().trim().min(1).max(2000).optional() }).default({});
