import type { Metadata } from "next";
import { SHELL_ID } from "@/components/console/shell-id";
import { RunShell } from "./run-shell";

export const metadata: Metadata = { title: "Run" };

// One prerendered shell for every run (next.config.js rewrites /runs/<id> here); the client reads the id.
export const dynamicParams = false;
export const generateStaticParams = () => [{ id: SHELL_ID }];

export default function RunDetail() {
  return <RunShell />;
}
