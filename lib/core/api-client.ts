import type { ErrorCode } from "@/lib/core/errors";

/** The error every failed API request throws: the API's `{ error: { code, message, details } }`. */
class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | "network",
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export function isApiError(err: unknown, code?: ApiError["code"]): err is ApiError {
  return err instanceof ApiError && (code === undefined || err.code === code);
}

const WORKSPACE_KEY = "sb.workspaceId";

/** The workspace the browser works in (sent as `x-workspace-id`); null means the default one. */
export function getWorkspaceId(): string | null {
  if (typeof window === "undefined") return null;
  return window.localStorage.getItem(WORKSPACE_KEY);
}

export function setWorkspaceId(id: string | null): void {
  if (id) window.localStorage.setItem(WORKSPACE_KEY, id);
  else window.localStorage.removeItem(WORKSPACE_KEY);
}

/** The events stream URL for the current workspace (EventSource cannot send headers). */
export function eventsUrl(): string {
  const workspaceId = getWorkspaceId();
  return workspaceId ? `/api/v1/events?workspace=${encodeURIComponent(workspaceId)}` : "/api/v1/events";
}

type Query = Record<string, string | number | undefined | null>;

interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  query?: Query;
  signal?: AbortSignal;
  /** Ask in this workspace instead of the browser's current one. */
  workspaceId?: string;
}

/** Builds `/api/v1<path>?query`, dropping empty query values. */
export function apiUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  }
  const qs = params.toString();
  return `/api/v1${path}${qs ? `?${qs}` : ""}`;
}

/** Calls the Switchboard API with the session cookie; resolves to the JSON body (undefined for 204). */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const workspaceId = options.workspaceId ?? getWorkspaceId();
  if (workspaceId) headers["x-workspace-id"] = workspaceId;

  let response: Response;
  try {
    response = await fetch(apiUrl(path, options.query), {
      method: options.method ?? "GET",
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: "same-origin",
      signal: options.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new ApiError(0, "network", "Could not reach the console. Is it running?");
  }

  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const error = (body as { error?: { code?: ErrorCode; message?: string; details?: unknown } } | undefined)?.error;
    throw new ApiError(
      response.status,
      error?.code ?? statusCode(response.status),
      error?.message ?? `Request failed with HTTP ${response.status}`,
      error?.details,
    );
  }
  return body as T;
}

function statusCode(status: number): ErrorCode {
  if (status === 401) return "unauthorized";
  if (status === 403) return "forbidden";
  if (status === 404) return "not_found";
  if (status === 405) return "method_not_allowed";
  if (status === 409) return "conflict";
  if (status === 410) return "gone";
  if (status === 422) return "unprocessable";
  if (status === 429) return "too_many_requests";
  if (status === 502) return "upstream_error";
  if (status === 503) return "unavailable";
  if (status >= 500) return "internal";
  return "bad_request";
}
