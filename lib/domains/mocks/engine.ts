// The mock's matching: pure, isomorphic (the console's endpoint and `switchboard mock serve` share it).
import { MASKED, shortened, type MockFile, type MockMethod, type MockRecording, type MockRpcError, type MockSettings } from "./index";

const INVALID_PARAMS = -32602;
const RESOURCE_NOT_FOUND = -32002;
// Arguments nested deeper differ unless they are the same value (hostile input must not exhaust the stack).
const MAX_DEPTH = 64;
// An error's `data` lists at most this many recordings.
const LISTED = 10;

/** The reference tokens of an RFC 6901 JSON pointer, or null when it is not one ("" is the whole document). */
export function parsePointer(pointer: string): string[] | null {
  if (pointer === "") return [];
  if (!pointer.startsWith("/") || /~(?![01])/.test(pointer)) return null;
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Why a list of ignore pointers is refused, or null (each must be an RFC 6901 pointer). */
export function pointersProblem(pointers: readonly string[]): { index: number; message: string } | null {
  for (const [index, pointer] of pointers.entries()) {
    if (parsePointer(pointer) === null) {
      return { index, message: `"${pointer.slice(0, 100)}" is not a JSON pointer (RFC 6901): "" or "/" followed by tokens, "~" written "~0" and "/" in a token "~1"` };
    }
  }
  return null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** How many leaves a value has (an empty object or array counts as one). */
function leaves(value: unknown, depth = 0): number {
  if (depth > MAX_DEPTH) return 1;
  const children = Array.isArray(value) ? value : isObject(value) ? Object.values(value) : null;
  if (!children || children.length === 0) return 1;
  return children.reduce<number>((sum, child) => sum + leaves(child, depth + 1), 0);
}

/**
 * A recorded string holding a mask (a secret inside text) matches any text in its place. Matched
 * without a regular expression: the recorded text is outside data, and the pieces between masks,
 * taken leftmost in order, decide it in linear time.
 */
export function maskedTextMatches(recorded: string, actual: string): boolean {
  const pieces = recorded.split(MASKED);
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  if (actual.length < first.length + last.length || !actual.startsWith(first) || !actual.endsWith(last)) return false;
  let at = first.length;
  const end = actual.length - last.length;
  for (const piece of pieces.slice(1, -1)) {
    const found = actual.indexOf(piece, at);
    if (found < 0 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}

/**
 * How many leaves differ between a recording's arguments and a call's: 0 is a match. What the
 * ignore pointers name is not compared; a masked value in the recording matches anything.
 */
export function differences(recorded: unknown, actual: unknown, ignored: ReadonlySet<string> = new Set(), path = "", depth = 0): number {
  if (ignored.has(path)) return 0;
  if (recorded === MASKED) return actual === undefined ? 1 : 0;
  if (recorded === undefined || actual === undefined) return leaves(recorded === undefined ? actual : recorded);
  if (depth > MAX_DEPTH) return recorded === actual ? 0 : 1;
  if (typeof recorded === "string" && typeof actual === "string") return recorded === actual || (recorded.includes(MASKED) && maskedTextMatches(recorded, actual)) ? 0 : 1;
  if (Array.isArray(recorded) && Array.isArray(actual)) {
    let sum = 0;
    for (let i = 0; i < Math.max(recorded.length, actual.length); i++) sum += differences(recorded[i], actual[i], ignored, `${path}/${i}`, depth + 1);
    return sum;
  }
  if (isObject(recorded) && isObject(actual)) {
    let sum = 0;
    for (const key of new Set([...Object.keys(recorded), ...Object.keys(actual)])) {
      sum += differences(recorded[key], actual[key], ignored, `${path}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`, depth + 1);
    }
    return sum;
  }
  if (typeof recorded === "object" && recorded !== null) return Math.max(leaves(recorded), 1);
  if (typeof actual === "object" && actual !== null) return Math.max(leaves(actual), 1);
  return Object.is(recorded, actual) || recorded === actual ? 0 : 1;
}

/** The ignore pointers in the canonical spelling `differences` compares paths with. */
export function ignoredPaths(pointers: readonly string[]): Set<string> {
  const paths = new Set<string>();
  for (const pointer of pointers) {
    const tokens = parsePointer(pointer);
    if (tokens) paths.add(tokens.map((t) => `/${t.replace(/~/g, "~0").replace(/\//g, "~1")}`).join(""));
  }
  return paths;
}

export interface MockRequest {
  method: MockMethod;
  name: string;
  arguments: Record<string, unknown> | null;
}

export type MockAnswer = { recording: MockRecording; index: number; exact: boolean } | { error: MockRpcError };

const what = (method: MockMethod) => (method === "tools/call" ? "tool" : method === "prompts/get" ? "prompt" : "resource");

/** The recording that answers a call: an exact match (the latest), else in "closest" mode the nearest; or the JSON-RPC error to answer. */
export function findAnswer(file: Pick<MockFile, "recordings" | "tools" | "prompts">, settings: Pick<MockSettings, "match" | "ignore">, request: MockRequest): MockAnswer {
  const candidates = file.recordings.map((recording, index) => ({ recording, index })).filter((c) => c.recording.method === request.method && c.recording.name === request.name);
  const label = `${what(request.method)} "${request.name.slice(0, 200)}"`;
  if (!candidates.length) return { error: unrecorded(file, request, label) };
  const ignored = ignoredPaths(settings.ignore);
  const actual = request.arguments ?? {};
  let best: { recording: MockRecording; index: number; diff: number } | null = null;
  for (const candidate of candidates) {
    const diff = request.method === "resources/read" ? 0 : differences(candidate.recording.arguments ?? {}, actual, ignored);
    if (!best || diff <= best.diff) best = { ...candidate, diff };
  }
  if (best!.diff === 0) return { recording: best!.recording, index: best!.index, exact: true };
  if (settings.match === "closest") return { recording: best!.recording, index: best!.index, exact: false };
  return {
    error: {
      code: INVALID_PARAMS,
      message: `No recorded call of ${label} matches these arguments (this mock answers exact matches only; ${candidates.length} recording${candidates.length === 1 ? " of it exists" : "s of it exist"})`,
      data: { method: request.method, name: request.name, recorded: candidates.slice(-LISTED).map((c) => ({ index: c.index, arguments: shortened(c.recording.arguments) })), ignore: settings.ignore },
    },
  };
}

function unrecorded(file: Pick<MockFile, "tools" | "prompts">, request: MockRequest, label: string): MockRpcError {
  if (request.method === "resources/read") return { code: RESOURCE_NOT_FOUND, message: `Resource not found: no recorded read of ${label} in this mock`, data: { uri: request.name } };
  const list = request.method === "tools/call" ? file.tools : file.prompts;
  const listed = list.some((item) => item.name === request.name);
  return {
    code: INVALID_PARAMS,
    message: listed ? `No recorded call of ${label}: this mock lists it but holds no recording of it` : `Unknown ${label}: this mock has no such ${what(request.method)}`,
    data: { method: request.method, name: request.name },
  };
}

/** How long to wait before answering with a recording. */
export function latencyOf(recording: MockRecording, settings: Pick<MockSettings, "latency">, cap: number): number {
  return settings.latency && recording.durationMs ? Math.min(Math.max(0, recording.durationMs), cap) : 0;
}
