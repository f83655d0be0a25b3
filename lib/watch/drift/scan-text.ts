// The definition scan's text checks (./scan.ts). Server text is hostile: every check here is a plain
// pass over the string (indexOf loops and code point walks), linear in its length; no regex runs on it.

/** Phrases aimed at the model rather than the user, matched case-insensitively once invisible characters are dropped and whitespace collapsed. */
export const INSTRUCTION_PHRASES = [
  "ignore previous",
  "ignore all previous",
  "ignore all prior",
  "ignore prior instructions",
  "ignore the above",
  "disregard previous",
  "disregard all prior",
  "forget your instructions",
  "forget all previous",
  "do not tell the user",
  "don't tell the user",
  "do not mention",
  "don't mention",
  "without telling the user",
  "without informing the user",
  "hide this from the user",
  "the user must not know",
  "you must",
  "you are now",
  "<important>",
  "<system>",
  "system prompt",
  "before using any other tool",
] as const;

/** Verbs of "send … to" (with a sensitive word, a URL or an address near them). */
const SEND_VERBS = ["send", "forward", "upload", "transmit", "post", "exfiltrate", "leak", "copy"];
const SENSITIVE = ["conversation", "chat history", "messages", "api key", "apikey", "token", "password", "secret", "credential", "ssh", "id_rsa", ".env", "private key", "environment variable", "cookie", "http://", "https://", "@"];
const SEND_WINDOW = 120;
export const BASE64_MIN = 40;

export type CharClass = "invisible" | "bidi" | "tag" | null;

/** Invisible (zero-width, joiners, fillers, variation selectors used for smuggling), bidirectional controls, or tag characters. */
export function classify(cp: number): CharClass {
  if (cp >= 0xe0000 && cp <= 0xe007f) return "tag";
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp === 0x200e || cp === 0x200f || cp === 0x061c) return "bidi";
  if (
    (cp >= 0x200b && cp <= 0x200d) ||
    (cp >= 0x2060 && cp <= 0x2064) ||
    cp === 0xfeff ||
    cp === 0x00ad ||
    cp === 0x034f ||
    cp === 0x180e ||
    cp === 0x115f ||
    cp === 0x1160 ||
    cp === 0x3164 ||
    cp === 0xffa0 ||
    (cp >= 0xe0100 && cp <= 0xe01ef) ||
    (cp >= 0xfff9 && cp <= 0xfffb)
  )
    return "invisible";
  return null;
}

const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;

/** What one walk over a text found: hidden characters (a few named), the tag characters' ASCII, and the text as a reader sees it. */
export interface TextReading {
  invisible: number;
  bidi: number;
  tags: number;
  named: string[];
  /** Tag characters U+E0020–U+E007E spell ASCII no one sees. */
  hidden: string;
  /** Lowercase, hidden characters dropped, whitespace runs as one space, ’ as '. */
  plain: string;
}

export function read(text: string): TextReading {
  const out: TextReading = { invisible: 0, bidi: 0, tags: 0, named: [], hidden: "", plain: "" };
  // Runs of characters kept as they are go in as slices: most text has nothing to drop.
  const parts: string[] = [];
  const hidden: string[] = [];
  const named = new Set<number>();
  let from = 0;
  let space = false;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80 && unit !== 9 && unit !== 10 && unit !== 13 && (unit !== 32 || !space)) {
      space = unit === 32;
      continue;
    }
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    const kind = cp < 0x80 ? null : classify(cp);
    const isSpace = cp === 32 || cp === 9 || cp === 10 || cp === 13 || cp === 0xa0;
    if (!kind && !isSpace && cp !== 0x2019) {
      space = false;
      i += width - 1;
      continue;
    }
    if (i > from) parts.push(text.slice(from, i));
    from = i + width;
    i += width - 1;
    if (kind) {
      out[kind === "tag" ? "tags" : kind]++;
      if (out.named.length < 5 && !named.has(cp)) named.add(cp) && out.named.push(hex(cp));
      if (kind === "tag" && cp >= 0xe0020 && cp <= 0xe007e && hidden.length < 10_000) hidden.push(String.fromCharCode(cp - 0xe0000));
    } else if (isSpace) {
      if (!space) parts.push(" ");
      space = true;
    } else {
      parts.push("'");
      space = false;
    }
  }
  parts.push(text.slice(from));
  out.plain = parts.join("").toLowerCase();
  out.hidden = hidden.join("");
  return out;
}

/** Every index where `needle` starts in `text`. */
function positions(text: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}

const wordChar = (c: string | undefined) => c !== undefined && ((c >= "a" && c <= "z") || (c >= "0" && c <= "9") || c === "_");

export function instructionPhrases(plain: string): string[] {
  return INSTRUCTION_PHRASES.filter((p) => plain.includes(p));
}

/** The http(s) URLs' hosts (a few). */
export function urlHosts(plain: string): string[] {
  const hosts = new Set<string>();
  for (const scheme of ["http://", "https://"]) {
    let seen = 0;
    for (let i = plain.indexOf(scheme); i !== -1 && hosts.size < 3 && seen++ < 10; i = plain.indexOf(scheme, i + scheme.length)) {
      let end = i + scheme.length;
      while (end < plain.length && end - i < 300 && !" \"'<>()[]{}/`".includes(plain[end]!)) end++;
      hosts.add(plain.slice(i + scheme.length, end) || "(no host)");
    }
  }
  return [...hosts];
}

/** Exfiltration hints: curl/wget, "send … to" near something sensitive, a base64 blob. */
export function exfiltrationHints(plain: string, raw: string): string[] {
  const hints: string[] = [];
  for (const tool of ["curl", "wget"]) {
    if (positions(plain, tool).some((i) => !wordChar(plain[i - 1]) && !wordChar(plain[i + tool.length]))) hints.push(`mentions ${tool}`);
  }
  const tos = Int32Array.from(positions(plain, " to "));
  const sensitive = Int32Array.from(SENSITIVE.flatMap((w) => positions(plain, w))).sort();
  for (const verb of SEND_VERBS) {
    let t = 0;
    let s = 0;
    for (const i of positions(plain, verb)) {
      if (wordChar(plain[i - 1])) continue;
      while (t < tos.length && tos[t]! < i) t++;
      while (s < sensitive.length && sensitive[s]! < i) s++;
      if (t < tos.length && tos[t]! - i <= SEND_WINDOW && s < sensitive.length && sensitive[s]! - i <= 2 * SEND_WINDOW) {
        hints.push(`"${verb} … to" near ${JSON.stringify(plain.slice(sensitive[s]!, sensitive[s]! + 20).split(" ")[0])}`);
        break;
      }
    }
    if (hints.some((h) => h.startsWith('"'))) break;
  }
  const blob = longestBase64Run(raw);
  if (blob >= BASE64_MIN) hints.push(`a base64-like blob of ${blob} characters`);
  return hints;
}

/** The longest run of base64 characters holding upper and lower case letters and a digit. */
function longestBase64Run(text: string): number {
  let best = 0;
  let len = 0;
  let mix = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = text.charCodeAt(i);
    const upper = c >= 65 && c <= 90;
    const lower = c >= 97 && c <= 122;
    const digit = c >= 48 && c <= 57;
    if (upper || lower || digit || c === 43 || c === 47 || c === 61 || c === 45 || c === 95) {
      len++;
      mix |= upper ? 1 : lower ? 2 : digit ? 4 : 0;
      continue;
    }
    if (mix === 7 && len > best) best = len;
    len = 0;
    mix = 0;
  }
  return best;
}

/** Server text as a message or the console may show it: hidden characters as <U+XXXX>, at most `max` characters. */
export function visible(text: string, max = 80): string {
  let out = "";
  for (const ch of text) {
    if (out.length >= max) return `${out}…`;
    out += classify(ch.codePointAt(0)!) ? `<${hex(ch.codePointAt(0)!)}>` : ch;
  }
  return out;
}
