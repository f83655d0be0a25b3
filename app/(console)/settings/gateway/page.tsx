import type { Metadata } from "next";
import { VirtualServers } from "@/components/gateway/virtual-servers";

export const metadata: Metadata = { title: "Gateway" };

// A server's own gateway settings are on its Gateway tab; what spans servers is here.
export default function GatewaySettingsPage() {
  return <VirtualServers />;
}
