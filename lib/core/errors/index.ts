/** The closed set of error codes the API returns, with their HTTP status. */
export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  /** A workspace rule refused the call (lib/domains/policies); `details` names the rule and the recorded call. */
  policy_denied: 403,
  not_found: 404,
  /** Only the direct path (lib/api) sends it; Next's pipeline answers 405 with no body. */
  method_not_allowed: 405,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  unprocessable: 422,
  too_many_requests: 429,
  upstream_error: 502,
  unavailable: 503,
  insufficient_storage: 507,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

interface ApiErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown };
}

/** The one error type of Switchboard. Route handlers turn it into `{ error: { code, message } }`. */
export class SwitchboardError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "SwitchboardError";
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): ApiErrorBody {
    return { error: { code: this.code, message: this.message, ...(this.details === undefined ? {} : { details: this.details }) } };
  }
}

export function notFound(what: string): SwitchboardError {
  return new SwitchboardError("not_found", `${what} not found`);
}

/**
 * Not an API error: what a request needs lives on another console instance (an agent connected
 * there, a call running there). The route wrapper forwards the request to it (lib/core/cluster).
 */
export class ServedElsewhere extends Error {
  constructor(
    readonly instanceId: string,
    what: string,
  ) {
    super(`${what} is served by console instance ${instanceId}`);
    this.name = "ServedElsewhere";
  }
}
