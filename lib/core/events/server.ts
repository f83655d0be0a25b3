import "server-only";

export type { ServerStatus, WorkspaceEvent } from "./index";
export { eventsSince, observe, publish, subscribe, subscriberCount } from "./bus";
export { eventStreamResponse } from "./stream";
