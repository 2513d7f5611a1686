// A template in CodeMirror 6 with `{{ name }}` highlighted; controlled (value/onChange). Only the
// editor page imports this file, so CodeMirror stays in that page's lazy chunk.
import { useEffect, useRef, useState } from "react";
import { history, defaultKeymap, historyKeymap } from "@codemirror/commands";
import { Annotation, Compartment, EditorState } from "@codemirror/state";
import { Decoration, EditorView, MatchDecorator, ViewPlugin, keymap, placeholder, type DecorationSet, type ViewUpdate } from "@codemirror/view";

/** `{{ name }}` as the shared template scanner reads it; `\{{` is a literal. */
const variableMatcher = new MatchDecorator({
  regexp: /(?<!\\)\{\{\s*[A-Za-z_][A-Za-z0-9_]*\s*\}\}/g,
  decoration: Decoration.mark({ class: "cm-variable" }),
});

const variableHighlight = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = variableMatcher.createDeco(view);
    }
    update(update: ViewUpdate) {
      this.decorations = variableMatcher.updateDeco(update, this.decorations);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);

const theme = EditorView.theme({
  "&": { fontSize: "0.875rem", backgroundColor: "transparent" },
  "&.cm-focused": { outline: "none" },
  ".cm-content": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace", padding: "0.5rem 0", minHeight: "6rem" },
  ".cm-line": { padding: "0 0.75rem" },
  ".cm-placeholder": { color: "var(--color-muted-foreground)" },
  // A variable never breaks across lines: the line wraps before it.
  ".cm-variable": { color: "#1d4ed8", backgroundColor: "#dbeafe", borderRadius: "0.25rem", fontWeight: "600", whiteSpace: "nowrap" },
});

/** Marks the changes made from `value`, so they are not reported back through onChange. */
const fromOutside = Annotation.define<boolean>();

const labelled = (label: string) => EditorView.contentAttributes.of({ "aria-label": label });

export interface CodeEditorProps {
  value: string;
  onChange(value: string): void;
  /** The accessible name of the editable area. */
  label: string;
  placeholder?: string;
}

export function CodeEditor({ value, onChange, label, placeholder: hint }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  const [labelSlot] = useState(() => new Compartment());

  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  // Created once; later values and labels arrive through the effects below.
  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          history(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          EditorView.lineWrapping,
          variableHighlight,
          theme,
          hint ? placeholder(hint) : [],
          labelSlot.of(labelled(label)),
          EditorView.updateListener.of((update) => {
            if (update.docChanged && !update.transactions.some((tr) => tr.annotation(fromOutside))) {
              onChangeRef.current(update.state.doc.toString());
            }
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
  }, []);

  useEffect(() => {
    const editor = view.current;
    if (!editor || editor.state.doc.toString() === value) return;
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value }, annotations: fromOutside.of(true) });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: labelSlot.reconfigure(labelled(label)) });
  }, [label]);

  return (
    <div
      ref={host}
      className="min-w-0 rounded-md border border-input bg-background shadow-xs focus-within:ring-2 focus-within:ring-ring focus-within:ring-offset-1"
    />
  );
}
