import type { Metadata } from "next";
import { SHELL_ID } from "@/components/console/shell-id";
import { ReplayShell } from "./replay-shell";

export const metadata: Metadata = { title: "Replay" };

// One prerendered shell for every replay (next.config.js rewrites /replays/<id> here); the client reads the id.
export const dynamicParams = false;
export const generateStaticParams = () => [{ id: SHELL_ID }];

export default function ReplayDetail() {
  return <ReplayShell />;
}
