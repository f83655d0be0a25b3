"use client";

import { createContext, useContext } from "react";

/** Where a rendered result came from: resource links are read on this server, cards act on it. */
interface RenderSource {
  serverId?: string;
  callId?: string;
  /**
   * A shared (public) view: nothing acts (card actions and resource reads are inert), MCP Apps
   * are not loaded, and nothing links into the workspace.
   */
  readOnly?: boolean;
}

export const RenderContext = createContext<RenderSource>({});

export function useRenderSource(): RenderSource {
  return useContext(RenderContext);
}
