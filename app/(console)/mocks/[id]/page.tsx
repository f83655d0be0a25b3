import type { Metadata } from "next";
import { SHELL_ID } from "@/components/console/shell-id";
import { MockShell } from "./mock-shell";

export const metadata: Metadata = { title: "Mock" };

// One prerendered shell for every mock (next.config.js rewrites /mocks/<id> here); the client reads the id.
export const dynamicParams = false;
export const generateStaticParams = () => [{ id: SHELL_ID }];

export default function MockDetail() {
  return (
    <div className="p-4 sm:p-6">
      <MockShell />
    </div>
  );
}
