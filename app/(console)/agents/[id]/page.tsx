import type { Metadata } from "next";
import { SHELL_ID } from "@/components/console/shell-id";
import { AgentShell } from "./agent-shell";

export const metadata: Metadata = { title: "Agent" };

// One prerendered shell for every agent (next.config.js rewrites /agents/<id> here); the client reads the id.
export const dynamicParams = false;
export const generateStaticParams = () => [{ id: SHELL_ID }];

export default function AgentPage() {
  return <AgentShell />;
}
