// The version being written and what is known of it as it changes: the shared lint's verdict (lightly
// debounced), whether the config is a JSON object, and whether anything differs from the start.
import { useMemo, useState } from "react";
import { lint } from "@promptly/shared";
import { draftSnapshot, parseConfig, versionBody, type VersionDraft } from "./draft.ts";
import { useDebouncedValue } from "@/hooks/use-debounced-value";

const LINT_DELAY_MS = 150;

export function useVersionDraft(initial: () => VersionDraft) {
  const [draft, setDraft] = useState(initial);
  const [startSnapshot] = useState(() => JSON.stringify(draftSnapshot(draft)));
  const checked = useDebouncedValue(draft, LINT_DELAY_MS);
  const lintResult = useMemo(() => lint(versionBody(checked)), [checked]);
  const config = useMemo(() => parseConfig(draft.config), [draft.config]);
  const changed = useMemo(() => JSON.stringify(draftSnapshot(draft)) !== startSnapshot, [draft, startSnapshot]);
  /** Whether the draft the lint last checked differs from the start (the lint's verdict is about that one). */
  const checkedChanged = useMemo(() => JSON.stringify(draftSnapshot(checked)) !== startSnapshot, [checked, startSnapshot]);
  return { draft, setDraft, lintResult, config, changed, checkedChanged };
}
