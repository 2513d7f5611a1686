// Saving a file made in the page (an export, a download the server answered as data) through a
// temporary link; the object URL is let go once the browser has taken the file.

/** Saves `data` as `name` of type `type` (a MIME type). */
export function saveFile(name: string, data: BlobPart, type: string): void {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
