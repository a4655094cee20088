/**
 * The string formats of the generated validators: ajv-formats' exact (`full`) formats, with `date-time` and `uri`
 * answered first by a check that accepts only the common shapes (`2025-03-11T10:02:11.912Z`,
 * `https://host/path?query`), each a subset of what the exact format accepts. Anything else goes to ajv-formats, so
 * every answer is the exact format's answer; only the common case is faster. No Node modules: it runs in browsers.
 */
import { fullFormats } from 'ajv-formats/dist/formats.js';

const exactDateTime = fullFormats['date-time'] as { validate: (value: string) => boolean };
const exactUri = fullFormats.uri as (value: string) => boolean;
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The two-digit number at `i` of a string whose characters there are known to be digits. */
function twoDigits(value: string, i: number): number {
  return value.charCodeAt(i) * 10 + value.charCodeAt(i + 1) - 528; // 528 = 48 * 11, the two '0's
}

/**
 * `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` with months 01–12, days 01–31, a time before 23:59:60 and a zone
 * before 24:00: a subset of what the exact format accepts (one `T`, no whitespace, a strict zone). One regular
 * expression without nested repetition (V8 runs it as machine code, faster here than a loop over char codes), then
 * the calendar only for days after the 28th.
 */
const COMMON_DATE_TIME =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])[Tt](?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/**
 * Common date-times with a real calendar date: true. Other strings (a leap second, `+0100`, a space as separator,
 * invalid values) get the exact format's answer.
 */
export function dateTime(value: string): boolean {
  if (COMMON_DATE_TIME.test(value)) {
    const day = twoDigits(value, 8);
    if (day <= 28) return true;
    const month = twoDigits(value, 5);
    const year = twoDigits(value, 0) * 100 + twoDigits(value, 2);
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    if (day <= (month === 2 && leap ? 29 : DAYS[month]!)) return true;
  }
  return exactDateTime.validate(value);
}

/**
 * `http(s)://host[:port][/path][?query][#fragment]` with only letters, digits and `-._~!$&'()*+,;=:@` (no
 * percent-escapes, user info or IP literal): a subset of RFC 3986 URIs. Others get the exact format's answer.
 * (A regular expression without nested repetition: V8 compiles it to machine code, faster here than a loop over
 * char codes. A path is `/` then segment characters and `/`, which is `(/segment)*`.)
 */
const COMMON_URI =
  /^https?:\/\/[a-zA-Z0-9\-.]+(?::[0-9]*)?(?:\/[a-zA-Z0-9\-._~!$&'()*+,;=:@/]*)?(?:\?[a-zA-Z0-9\-._~!$&'()*+,;=:@/?]*)?(?:#[a-zA-Z0-9\-._~!$&'()*+,;=:@/?]*)?$/;

export function uri(value: string): boolean {
  return COMMON_URI.test(value) || exactUri(value);
}

/** The formats object the standalone code reads: ajv-formats' exact formats, with the two above in their place. */
export const formats: Record<string, unknown> = { ...fullFormats, 'date-time': dateTime, uri };
