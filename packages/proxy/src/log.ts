/**
 * A line as written to the log: control characters (a newline in a field name a client sent) escaped, so that no
 * input can start a line of its own.
 */
export function oneLine(text: string): string {
  let out = '';
  for (const c of text) {
    const code = c.charCodeAt(0);
    const control = code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
    out += control ? `\\u${code.toString(16).padStart(4, '0')}` : c;
  }
  return out;
}

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
    write(oneLine(line));
  };
}
