// The one CSV writer of every download (RFC 4180), safe to open in a spreadsheet.

export type CsvCell = string | number | null | undefined;

/**
 * A cell as RFC 4180 wants it. Text starting with =, +, -, @, a tab or a carriage return gets a
 * leading ' so a spreadsheet shows it instead of running it as a formula; a number is only a number.
 */
function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "number" ? String(value) : /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows of cells as CSV text: commas between cells, CRLF after every row. */
export function csvText(rows: readonly (readonly CsvCell[])[]): string {
  return rows.map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

/** A CSV record and the line it starts on (1-based; a quoted cell may run over several lines). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/**
 * CSV text (RFC 4180: commas, double-quoted cells with "" for a quote, CRLF or LF) as records; blank
 * lines are skipped and a leading byte-order mark ignored. `unclosedQuoteLine`: a quoted cell opened
 * on that line never closes (the records before it are still given).
 */
export function parseCsv(text: string): { records: CsvRecord[]; unclosedQuoteLine: number | null } {
  const records: CsvRecord[] = [];
  const input = text.startsWith("\uFEFF") ? text.slice(1) : text;
  let line = 1;
  let at = 0;
  while (at < input.length) {
    const start = line;
    const cells: string[] = [];
    let cell = "";
    let ended = false;
    while (!ended) {
      if (input[at] === '"') {
        const opened = line;
        at++;
        for (;;) {
          if (at >= input.length) return { records, unclosedQuoteLine: opened };
          const char = input[at]!;
          if (char === '"') {
            if (input[at + 1] === '"') {
              cell += '"';
              at += 2;
              continue;
            }
            at++;
            break;
          }
          if (char === "\n") line++;
          cell += char;
          at++;
        }
      }
      // Up to the next comma or end of line (text after a closing quote is kept as written).
      while (at < input.length && input[at] !== "," && input[at] !== "\n" && input[at] !== "\r") cell += input[at++];
      cells.push(cell);
      cell = "";
      if (input[at] === ",") {
        at++;
        continue;
      }
      if (input[at] === "\r") at++;
      if (input[at] === "\n") {
        at++;
        line++;
      }
      ended = true;
    }
    if (!(cells.length === 1 && cells[0] === "")) records.push({ line: start, cells });
  }
  return { records, unclosedQuoteLine: null };
}
