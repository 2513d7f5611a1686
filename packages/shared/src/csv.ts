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
