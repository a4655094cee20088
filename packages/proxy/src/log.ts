/** A log that writes at most `perSecond` lines a second, and says how many it left out once it writes again. */
export function rateLimitedLog(write: (line: string) => void, perSecond: number): (line: string) => void {
  let second = 0;
  let written = 0;
  let skipped = 0;
  return (line) => {
    const now = Math.floor(Date.now() / 1000);
    if (now !== second) {
      second = now;
      written = 0;
    }
    if (written >= perSecond) {
      skipped++;
      return;
    }
    if (skipped > 0) {
      write(
        `… ${skipped} more disagreement line(s) not logged (at most ${perSecond} a second; the report counts them all)`,
      );
      skipped = 0;
      written++;
    }
    written++;
    write(line);
  };
}
