// The Test cases tab: the prompt's cases, oldest first, each a preview (its variables in the latest
// version's order, their names and values and the expected output cut short, its assertions as chips);
// Edit loads the case whole. Editors add, edit, delete and import them; readers only read.
import { useState } from "react";
import { Pencil, Plus, Trash2 } from "lucide-react";
import { toast } from "sonner";
import { LoadFailure } from "@/components/layout/load-failure";
import type { PromptDetail } from "@/components/prompts/page/types";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { SkeletonRows } from "@/components/ui/skeleton";
import { trpc } from "@/lib/trpc";
import { assertionText, previewText } from "./assertion-text.ts";
import { ImportTestCasesDialog } from "./import-test-cases-dialog.tsx";
import { TestCaseDialog, type TestCasePreview } from "./test-case-dialog.tsx";

export function TestCasesTab({ prompt }: { prompt: PromptDetail }) {
  const cases = trpc.testCases.list.useQuery({ promptId: prompt.id });
  const canWrite = prompt.can.write && !prompt.archivedAt;
  const [editing, setEditing] = useState<TestCasePreview | "new" | null>(null);
  const [deleting, setDeleting] = useState<{ testCase: TestCasePreview; number: number } | null>(null);

  return (
    <div className="grid min-w-0 gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <p className="mr-auto text-sm text-muted-foreground">
          {cases.data ? `${cases.data.length} ${cases.data.length === 1 ? "test case" : "test cases"}. ` : ""}
          Each evaluation runs every case against the versions it is asked for.
        </p>
        {canWrite && (
          <>
            <ImportTestCasesDialog promptId={prompt.id} />
            <Button size="sm" onClick={() => setEditing("new")}>
              <Plus aria-hidden="true" />
              Add test case
            </Button>
          </>
        )}
      </div>
      {cases.isPending ? (
        <SkeletonRows label="Loading test cases" />
      ) : cases.isError ? (
        <LoadFailure title="The test cases could not be loaded" error={cases.error} onRetry={() => void cases.refetch()} />
      ) : cases.data.length === 0 ? (
        <div className="grid gap-2 rounded-lg border border-dashed border-border p-6 text-center text-sm text-muted-foreground" data-testid="test-cases-empty">
          <p className="font-medium text-foreground">No test cases yet.</p>
          <p>A case gives the variables' values, what the answer should be, and the checks it must pass. Add one, import a CSV or JSON Lines file, or save a Playground run as one.</p>
        </div>
      ) : (
        <ol className="grid min-w-0 gap-3" aria-label="Test cases">
          {cases.data.map((testCase, index) => (
            <TestCaseItem
              key={testCase.id}
              number={index + 1}
              testCase={testCase}
              canWrite={canWrite}
              onEdit={() => setEditing(testCase)}
              onDelete={() => setDeleting({ testCase, number: index + 1 })}
            />
          ))}
        </ol>
      )}
      {canWrite && (
        <TestCaseDialog promptId={prompt.id} open={editing !== null} onOpenChange={(open) => !open && setEditing(null)} testCaseId={editing === "new" || editing === null ? undefined : editing.id} />
      )}
      {canWrite && <DeleteTestCaseDialog promptId={prompt.id} target={deleting} onClose={() => setDeleting(null)} />}
    </div>
  );
}

function TestCaseItem({
  number, testCase, canWrite, onEdit, onDelete,
}: { number: number; testCase: TestCasePreview; canWrite: boolean; onEdit(): void; onDelete(): void }) {
  return (
    <li className="grid min-w-0 gap-2 rounded-lg border p-3" data-testid="test-case" aria-label={`Case ${number}`}>
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="mr-auto text-sm font-semibold">Case {number}</h3>
        {canWrite && (
          <>
            <Button variant="ghost" size="sm" aria-label={`Edit case ${number}`} onClick={onEdit}>
              <Pencil aria-hidden="true" />
              Edit
            </Button>
            <Button variant="ghost" size="sm" aria-label={`Delete case ${number}`} onClick={onDelete}>
              <Trash2 aria-hidden="true" />
              Delete
            </Button>
          </>
        )}
      </div>
      <dl className="grid min-w-0 grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        {testCase.variables.length === 0 && (
          <>
            <dt className="text-muted-foreground">Variables</dt>
            <dd>None</dd>
          </>
        )}
        {/* By position: two long names cut alike read the same. */}
        {testCase.variables.map(({ name, nameCut, value, cut }, index) => (
          <div key={index} className="contents">
            <dt className="font-mono text-xs leading-5 text-muted-foreground wrap-anywhere">{previewText(name, nameCut)}</dt>
            <dd className="whitespace-pre-wrap wrap-anywhere">{previewText(value, cut)}</dd>
          </div>
        ))}
        {testCase.variableCount > testCase.variables.length && (
          <>
            <dt className="text-muted-foreground">More</dt>
            <dd>{`${testCase.variableCount - testCase.variables.length} more ${testCase.variableCount - testCase.variables.length === 1 ? "variable" : "variables"}`}</dd>
          </>
        )}
        {testCase.expected !== null && (
          <>
            <dt className="text-muted-foreground">Expected</dt>
            <dd className="line-clamp-4 whitespace-pre-wrap wrap-anywhere">{previewText(testCase.expected.text, testCase.expected.cut)}</dd>
          </>
        )}
      </dl>
      {testCase.assertions.length > 0 && (
        <ul className="flex min-w-0 flex-wrap gap-1.5" aria-label={`Assertions of case ${number}`}>
          {testCase.assertions.map((assertion, index) => (
            <li key={index} className="min-w-0">
              <Badge variant="outline" className="max-w-full whitespace-normal wrap-anywhere">
                {assertionText(assertion)}
              </Badge>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

function DeleteTestCaseDialog({ promptId, target, onClose }: { promptId: string; target: { testCase: TestCasePreview; number: number } | null; onClose(): void }) {
  const utils = trpc.useUtils();
  const remove = trpc.testCases.delete.useMutation({
    async onSuccess() {
      toast.success("Test case deleted");
      await utils.testCases.list.invalidate({ promptId });
      onClose();
    },
  });
  return (
    <ConfirmDeleteDialog
      open={target !== null}
      onOpenChange={(open) => {
        if (!open) {
          remove.reset();
          onClose();
        }
      }}
      title={target ? `Delete case ${target.number}?` : "Delete case?"}
      description="Evaluations that ran it keep their results."
      confirmLabel="Delete test case"
      busy={remove.isPending}
      refusal={remove.error?.message}
      onConfirm={() => target && remove.mutate({ id: target.testCase.id })}
    />
  );
}
