import type { Metadata } from "next";
import { SHELL_ID } from "@/components/console/shell-id";
import { MonitorShell } from "./monitor-shell";

export const metadata: Metadata = { title: "Monitor" };

// One prerendered shell for every monitor (next.config.js rewrites /monitors/<id> here); the client reads the id.
export const dynamicParams = false;
export const generateStaticParams = () => [{ id: SHELL_ID }];

export default function MonitorDetail() {
  return <MonitorShell />;
}
