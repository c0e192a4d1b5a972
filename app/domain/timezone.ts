export const TIME_ZONE = "Europe/Paris";

/** A YYYY-MM-DD date is a calendar day, not an instant: it is shown as it is, whatever the zone. */
export function formatInTimeZone(iso: string, options: Intl.DateTimeFormatOptions): string {
  const isDay = /^\d{4}-\d{2}-\d{2}$/.test(iso);
  const date = new Date(isDay ? `${iso}T12:00:00Z` : iso);
  return new Intl.DateTimeFormat("fr-FR", { ...options, timeZone: isDay ? "UTC" : TIME_ZONE }).format(date);
}
