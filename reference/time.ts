/** The provider's timestamp form: YYYY-MM-DD HH:MM:SS.ffffff in UTC (wire conventions §2). */
export function timestamp(date = new Date()): string {
  return `${date.toISOString().replace("T", " ").replace("Z", "")}000`;
}
