"use client";

import { useEffect, useMemo, useRef } from "react";
import CodeMirror, { EditorView, keymap, Prec } from "@uiw/react-codemirror";
import { json } from "@codemirror/lang-json";
import { useDarkTheme } from "@/components/theme/use-dark-theme";

export interface JsonEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** The accessible name of the editable text box. */
  label: string;
  minHeight?: string;
  maxHeight?: string;
  readOnly?: boolean;
  /** Called on Ctrl/Cmd+Enter inside the editor. */
  onSubmit?: () => void;
}

/** A CodeMirror JSON editor whose text box is named `label` (role="textbox"); loaded lazily through ./json-editor. */
export default function JsonEditor({ value, onChange, label, minHeight = "8rem", maxHeight = "24rem", readOnly, onSubmit }: JsonEditorProps) {
  const dark = useDarkTheme();
  const submitRef = useRef(onSubmit);
  useEffect(() => {
    submitRef.current = onSubmit;
  }, [onSubmit]);
  const hasSubmit = Boolean(onSubmit);
  const extensions = useMemo(
    () => [
      json(),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ "aria-label": label }),
      // Handled here (and the key event marked as handled) so the default Mod-Enter does not insert a line.
      ...(hasSubmit
        ? [
            Prec.highest(
              keymap.of([
                {
                  key: "Mod-Enter",
                  run: () => {
                    submitRef.current?.();
                    return true;
                  },
                },
              ]),
            ),
          ]
        : []),
    ],
    [label, hasSubmit],
  );
  return (
    <div className="overflow-hidden rounded-md border text-xs">
      <CodeMirror
        value={value}
        onChange={onChange}
        extensions={extensions}
        theme={dark ? "dark" : "light"}
        readOnly={readOnly}
        minHeight={minHeight}
        maxHeight={maxHeight}
        basicSetup={{ foldGutter: true, highlightActiveLine: false, autocompletion: false }}
      />
    </div>
  );
}
