export const TIME_ZONE = "Europe/Paris";

const formats = new Map<string, Intl.DateTimeFormat>();

/** A YYYY-MM-DD date is a calendar day, not an instant: it is shown as it is, whatever the zone. */
export function formatInTimeZone(iso: string, options: Intl.DateTimeFormatOptions): string {
  const isDay = /^\d{4}-\d{2}-\d{2}$/.test(iso);
  const date = new Date(isDay ? `${iso}T12:00:00Z` : iso);
  const resolved = { ...options, timeZone: isDay ? "UTC" : TIME_ZONE };
  // Formatters are costly to build and the options are few: one per set of options.
  const key = JSON.stringify(resolved);
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat("fr-FR", resolved);
    formats.set(key, format);
  }
  return format.format(date);
}
