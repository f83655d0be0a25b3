import "server-only";

export type { LogLineEvent, ServerStatus, WorkspaceEvent } from "./index";
export { eventsSince, publish, subscribe, subscriberCount } from "./bus";
export { eventStreamResponse, type EventStreamOptions } from "./stream";
