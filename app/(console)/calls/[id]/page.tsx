import type { Metadata } from "next";
import { CallPage } from "@/components/calls/call-page";

export const metadata: Metadata = { title: "Call" };

export default async function CallPermalink({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <CallPage key={id} id={id} />;
}
