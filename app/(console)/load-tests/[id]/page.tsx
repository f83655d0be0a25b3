import type { Metadata } from "next";
import { SHELL_ID } from "@/components/console/shell-id";
import { LoadTestShell } from "./load-test-shell";

export const metadata: Metadata = { title: "Load test" };

// One prerendered shell for every load test (next.config.js rewrites /load-tests/<id> here); the client reads the id.
export const dynamicParams = false;
export const generateStaticParams = () => [{ id: SHELL_ID }];

export default function LoadTestDetail() {
  return <LoadTestShell />;
}
