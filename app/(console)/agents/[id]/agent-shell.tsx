"use client";

import { AgentDetail } from "@/components/agents/agent-detail";
import { UrlSegment } from "@/components/console/url-segment";

export function AgentShell() {
  return <UrlSegment index={1}>{(id) => <AgentDetail key={id} id={id} />}</UrlSegment>;
}
