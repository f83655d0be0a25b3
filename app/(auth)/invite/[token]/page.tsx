import type { Metadata } from "next";
import { SHELL_ID } from "@/components/console/shell-id";
import { InviteShell } from "./invite-shell";

export const metadata: Metadata = { title: "Invitation", referrer: "no-referrer" };

// One prerendered shell for every invitation (next.config.js rewrites /invite/<token> here); the client reads the token.
export const dynamicParams = false;
export const generateStaticParams = () => [{ token: SHELL_ID }];

export default function InvitePage() {
  return <InviteShell />;
}
