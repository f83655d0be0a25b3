"use client";

import { Highlight, themes } from "prism-react-renderer";
import { useDarkTheme } from "@/components/theme/use-dark-theme";

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
  const dark = useDarkTheme();
  const language = languageFor(mimeType);
  const base = `${className} overflow-auto rounded bg-panel p-2 font-mono text-xs whitespace-pre-wrap break-words`;
  if (!language || text.length > HIGHLIGHT_LIMIT) return <pre className={base}>{text}</pre>;
  return (
    <Highlight code={text} language={language} theme={dark ? themes.vsDark : themes.github}>
      {({ tokens, getLineProps, getTokenProps }) => (
        <pre className={base} data-language={language}>
          {tokens.map((line, i) => (
            <div key={i} {...getLineProps({ line })} style={undefined}>
              {line.map((token, key) => (
                <span key={key} {...getTokenProps({ token })} />
              ))}
            </div>
          ))}
        </pre>
      )}
    </Highlight>
  );
}
