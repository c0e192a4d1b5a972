/**
 * The light version for poor networks (issue 18 §3, decision 0040): pages served without any script, web font
 * or decorative image — exactly what a browser without JavaScript gets. Why a page is light: the browser asked
 * (`Save-Data: on`), or the person chose it in the settings; null for the full version.
 */
export type LightVersion = "saveData" | "account" | null;

/**
 * Whether a `Save-Data` header asks for less data: its first token is `on` (the header's grammar allows
 * `on; more`), in any case. Anything else, or no header, asks nothing.
 */
export function saveDataRequested(header: string | null | undefined): boolean {
  if (!header) return false;
  return header.split(";")[0]!.trim().toLowerCase() === "on";
}

/** The browser's request first (the person cannot turn it off here), then the person's own choice. */
export function lightVersionOf(saveDataHeader: string | null | undefined, chosen: boolean): LightVersion {
  if (saveDataRequested(saveDataHeader)) return "saveData";
  return chosen ? "account" : null;
}
