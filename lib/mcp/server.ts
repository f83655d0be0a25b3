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
  LogLevel,
  LogMessage,
  McpConnection,
  Progress,
  RequestOptions,
  ServerRequest,
  ServerRequestOutcome,
  TaskInfo,
  TaskOutcome,
  TaskStart,
  ToolDefinition,
  TrafficRecord,
  TransportMode,
} from "./types";
