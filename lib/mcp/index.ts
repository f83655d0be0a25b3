// Isomorphic door: types and the error class only, no SDK runtime.
export { McpError, type McpErrorKind } from "./errors";
export type { CallMethod, CompletionRequest, CompletionResult, ConnectionInfo, ListChangedKind, ListKind, Progress, TaskInfo, TransportMode, ToolDefinition } from "./types";
