"use client";

import { Highlight, themes } from "prism-react-renderer";
import { useDarkTheme } from "@/components/theme/use-dark-theme";

/** Prism-highlighted text (loaded lazily through ./code-view). */
export default function CodeHighlight({ text, language, className }: { text: string; language: string; className: string }) {
  const dark = useDarkTheme();
  return (
    <Highlight code={text} language={language} theme={dark ? themes.vsDark : themes.github}>
      {({ tokens, getLineProps, getTokenProps }) => (
        <pre className={className} data-language={language}>
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
