import type { Metadata } from "next";
import { SHELL_ID } from "@/components/console/shell-id";
import { SharedShell } from "./shared-shell";

export const metadata: Metadata = { title: "Shared on Switchboard", robots: { index: false, follow: false }, referrer: "no-referrer" };

// One prerendered shell for every link (next.config.js rewrites /s/<token> here). The console
// serves it with the link's status and what the public API would answer (lib/domains/shares/page-front.ts).
export const dynamicParams = false;
export const generateStaticParams = () => [{ token: SHELL_ID }];

export default function SharedLinkPage() {
  return <SharedShell />;
}
