// The Production tab's "Export" menu: every generation of the tab's filters as CSV or JSON Lines, read a
// page at a time and saved through a temporary link. The CSV's columns and cells are REST /api/v1's
// (the shared GENERATION_CSV_HEADER, generationCsvRow and generationJsonLines), so the two exports cannot drift.
import { useState } from "react";
import { ChevronDown, Download } from "lucide-react";
import { toast } from "sonner";
import type { RouterInputs, RouterOutputs } from "@promptly/api";
import { GENERATIONS_PAGE_MAX, GENERATION_CSV_HEADER, PRODUCTION_EXPORT_LIMIT, csvText, generationCsvRow, generationExportFileName, generationJsonLines } from "@promptly/shared";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { trpc } from "@/lib/trpc";
import { saveFile } from "@/lib/save-file";

type Generation = RouterOutputs["production"]["generations"]["items"][number];
type GenerationFilters = Omit<RouterInputs["production"]["generations"], "cursor" | "limit">;
type ExportFormat = "csv" | "jsonl";

const fileText = (format: ExportFormat, items: Generation[]) =>
  format === "csv" ? csvText([GENERATION_CSV_HEADER, ...items.map(generationCsvRow)]) : generationJsonLines(items);

export function GenerationExport({ promptName, filters }: { promptName: string; filters: GenerationFilters }) {
  const utils = trpc.useUtils();
  const [exporting, setExporting] = useState(false);

  async function exportAs(format: ExportFormat) {
    setExporting(true);
    try {
      const items: Generation[] = [];
      let cursor: string | undefined;
      let more = false;
      do {
        const page = await utils.client.production.generations.query({ ...filters, cursor, limit: GENERATIONS_PAGE_MAX });
        items.push(...page.items);
        cursor = page.nextCursor ?? undefined;
        more = cursor !== undefined || items.length > PRODUCTION_EXPORT_LIMIT;
      } while (cursor && items.length < PRODUCTION_EXPORT_LIMIT);
      const kept = items.slice(0, PRODUCTION_EXPORT_LIMIT);
      const type = format === "csv" ? "text/csv;charset=utf-8" : "application/x-ndjson;charset=utf-8";
      saveFile(generationExportFileName(promptName, format), fileText(format, kept), type);
      if (more) {
        const limit = PRODUCTION_EXPORT_LIMIT.toLocaleString("en-US");
        toast.warning(`The export holds only the first ${limit} generations`, { description: "Narrow the range or the filters to export the rest." });
      }
    } catch {
      toast.error("The generations could not be exported", { description: "Check your connection and try again." });
    } finally {
      setExporting(false);
    }
  }

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm" disabled={exporting}>
          <Download aria-hidden="true" />
          {exporting ? (
            "Preparing…"
          ) : (
            <span>
              Export<span className="sr-only"> generations</span>
            </span>
          )}
          <ChevronDown aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={() => void exportAs("csv")}>CSV</DropdownMenuItem>
        <DropdownMenuItem onSelect={() => void exportAs("jsonl")}>JSON Lines</DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
