import type { Metadata } from "next";
import { SHELL_ID } from "@/components/console/shell-id";
import { CallShell } from "./call-shell";

export const metadata: Metadata = { title: "Call" };

// One prerendered shell for every call (next.config.js rewrites /calls/<id> here); the client reads the id.
export const dynamicParams = false;
export const generateStaticParams = () => [{ id: SHELL_ID }];

export default function CallPermalink() {
  return <CallShell />;
}
