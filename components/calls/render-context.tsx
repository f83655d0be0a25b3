"use client";

import { createContext, useContext } from "react";

/** Where a rendered result came from: resource links are read on this server, cards act on it. */
export interface RenderSource {
  serverId?: string;
  callId?: string;
}

export const RenderContext = createContext<RenderSource>({});

export function useRenderSource(): RenderSource {
  return useContext(RenderContext);
}
