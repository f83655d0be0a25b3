import "server-only";

export { openConnection } from "./connection";
export { callEndingOf, McpError, type CallEnding, type McpErrorKind } from "./errors";
export { explainError } from "./explain";
export { classifyFailure, HostTimeout, toApiError, toCallError, toJsonRpcError, type Failure, type JsonRpcFailure } from "./failures";
export { beginAuthorization, finishAuthorization, revokeTokens, type OAuthStore, type OAuthTokenRecord, type PendingAuthorization } from "./oauth";
export { runOAuthChecks } from "./oauth-checks";
export { leaveSession } from "./transports";
export { openRelayedUpstream, type UpstreamConfig } from "./upstream";
export type { MachineCredentials } from "./oauth-machine";
export { idpTokenEndpoint, type EnterpriseCredentials } from "./oauth-enterprise";
export { callbackSteps, refreshSteps, signInSteps } from "./oauth-steps";
export { createOAuthRecorder, type OAuthRecorder } from "./oauth-trace";
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
  Negotiation,
  Progress,
  ProtocolEra,
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
