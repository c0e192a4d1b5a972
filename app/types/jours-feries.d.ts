/** `@socialgouv/jours-feries` ships no types: a function of the year giving each holiday's name and its day. */
declare module "@socialgouv/jours-feries" {
  /** The day of each holiday, built in the server's local time (read it with the local getters). */
  export default function getJoursFeries(year: number, options?: { alsace?: boolean }): Record<string, Date>;
}
