"use client";

import { lazy, Suspense } from "react";

// Prism is fetched the first time highlighted text is shown; until then the plain text.
const CodeHighlight = lazy(() => import("./code-highlight"));

const HIGHLIGHT_LIMIT = 100_000;

const LANGUAGES: [RegExp, string][] = [
  [/json/, "json"],
  [/(java|ecma)script|\/js$/, "javascript"],
  [/typescript|\/ts$/, "typescript"],
  [/jsx/, "jsx"],
  [/tsx/, "tsx"],
  [/html|xml|svg/, "markup"],
  [/css/, "css"],
  [/python/, "python"],
  [/ya?ml/, "yaml"],
  [/markdown/, "markdown"],
  [/sql/, "sql"],
  [/(x-)?(sh|shellscript|bash)$/, "bash"],
  [/rust/, "rust"],
  [/go(lang)?$/, "go"],
  [/(x-)?c(\+\+|pp)?(src)?$/, "cpp"],
  [/graphql/, "graphql"],
];

/** The Prism language for a mimeType, or null for plain text. */
export function languageFor(mimeType: string | undefined): string | null {
  if (!mimeType) return null;
  const type = mimeType.toLowerCase().split(";")[0]!.trim();
  if (type === "text/plain") return null;
  return LANGUAGES.find(([re]) => re.test(type))?.[1] ?? null;
}

/** Text with syntax highlighting picked by mimeType; plain <pre> when unknown or very long. */
export function CodeView({ text, mimeType, className = "max-h-[32rem]" }: { text: string; mimeType?: string; className?: string }) {
  const language = languageFor(mimeType);
  const base = `${className} overflow-auto rounded bg-panel p-2 font-mono text-xs whitespace-pre-wrap break-words`;
  const plain = <pre className={base}>{text}</pre>;
  if (!language || text.length > HIGHLIGHT_LIMIT) return plain;
  return (
    <Suspense fallback={plain}>
      <CodeHighlight text={text} language={language} className={base} />
    </Suspense>
  );
}
