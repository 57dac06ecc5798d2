/** The provider's timestamp form: YYYY-MM-DD HH:MM:SS.ffffff in UTC (wire conventions §2). */
export function timestamp(date = new Date()): string {
  return `${date.toISOString().replace("T", " ").replace("Z", "")}000`;
}

/**
 * How far the wall clock of a time zone is ahead of UTC at an instant, in milliseconds (only the faults that get the zone
 * wrong use it; every timestamp the reference shows is UTC).
 */
export function zoneOffsetMs(date: Date, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  const wallClock = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!);
  return wallClock - Math.floor(date.getTime() / 1000) * 1000;
}
