// "Browser on OS" for the account activity list, from a User-Agent header.
// A small ordered rule list is enough for the browsers people use; anything else is "Unknown".

const BROWSERS: [name: string, pattern: RegExp][] = [
  // Order matters: Edge, Opera, Samsung and others also claim to be Chrome; Chrome also claims Safari.
  ["Edge", /\bEdg(?:e|A|iOS)?\//],
  ["Opera", /\b(?:OPR|Opera)\//],
  ["Samsung Internet", /\bSamsungBrowser\//],
  ["Vivaldi", /\bVivaldi\//],
  ["Firefox", /\b(?:Firefox|FxiOS)\//],
  ["Chrome", /\b(?:Chrome|CriOS|HeadlessChrome|Chromium)\//],
  ["Safari", /\bVersion\/[\d.]+.*\bSafari\//],
  ["Internet Explorer", /\b(?:MSIE |Trident\/)/],
];

const SYSTEMS: [name: string, pattern: RegExp][] = [
  ["iOS", /\b(?:iPhone|iPad|iPod)\b/],
  ["Android", /\bAndroid\b/],
  ["ChromeOS", /\bCrOS\b/],
  ["Windows", /\bWindows\b/],
  ["macOS", /\bMac OS X\b|\bMacintosh\b/],
  ["Linux", /\bLinux\b|\bX11\b/],
];

export function describeDevice(userAgent: string | null | undefined): string {
  if (!userAgent) return "Unknown device";
  const browser = BROWSERS.find(([, pattern]) => pattern.test(userAgent))?.[0] ?? "Unknown browser";
  const system = SYSTEMS.find(([, pattern]) => pattern.test(userAgent))?.[0] ?? "Unknown OS";
  return `${browser} on ${system}`;
}
