import "server-only";

export { openConnection } from "./connection";
export { McpError, type McpErrorKind } from "./errors";
export { explainError } from "./explain";
export type {
  CallMethod,
  CompletionRequest,
  CompletionResult,
  ConnectionConfig,
  ConnectionInfo,
  ListChangedKind,
  ListKind,
  McpConnection,
  RequestOptions,
  ToolDefinition,
  TransportMode,
} from "./types";
