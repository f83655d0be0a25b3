import type { Metadata } from "next";
import { SHELL_ID } from "@/components/console/shell-id";
import { CollectionShell } from "./collection-shell";

export const metadata: Metadata = { title: "Collection" };

// One prerendered shell for every collection (next.config.js rewrites /collections/<id> here); the client reads the id.
export const dynamicParams = false;
export const generateStaticParams = () => [{ id: SHELL_ID }];

export default function CollectionDetail() {
  return <CollectionShell />;
}
