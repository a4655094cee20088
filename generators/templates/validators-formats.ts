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

/** The digit at `i` (0–9), or -1 when it is not a digit. */
function digit(value: string, i: number): number {
  const c = value.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1;
}

/** Two digits at `i` as a number, or -1. */
function twoDigits(value: string, i: number): number {
  const a = digit(value, i);
  const b = digit(value, i + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
}

/**
 * `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` with a real calendar date and a time before 23:59:60: true.
 * Other strings (a leap second, `+0100`, a space as separator, invalid values) get the exact format's answer.
 */
export function dateTime(value: string): boolean {
  const length = value.length;
  if (length < 20 || value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45 || (value.charCodeAt(10) | 32) !== 116) return exactDateTime.validate(value);
  const y1 = twoDigits(value, 0);
  const y2 = twoDigits(value, 2);
  const month = twoDigits(value, 5);
  const day = twoDigits(value, 8);
  if (y1 < 0 || y2 < 0 || month < 1 || month > 12 || day < 1) return exactDateTime.validate(value);
  const year = y1 * 100 + y2;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 && leap ? 29 : DAYS[month]!)) return exactDateTime.validate(value);
  const hour = twoDigits(value, 11);
  const minute = twoDigits(value, 14);
  const second = twoDigits(value, 17);
  if (value.charCodeAt(13) !== 58 || value.charCodeAt(16) !== 58 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
    return exactDateTime.validate(value);
  }
  let i = 19;
  if (value.charCodeAt(i) === 46) {
    i += 1;
    const start = i;
    while (i < length && digit(value, i) >= 0) i += 1;
    if (i === start) return exactDateTime.validate(value);
  }
  const zone = value.charCodeAt(i);
  if ((zone | 32) === 122 && i + 1 === length) return true;
  if ((zone === 43 || zone === 45) && i + 6 === length && value.charCodeAt(i + 3) === 58) {
    const zoneHour = twoDigits(value, i + 1);
    const zoneMinute = twoDigits(value, i + 4);
    if (zoneHour >= 0 && zoneHour <= 23 && zoneMinute >= 0 && zoneMinute <= 59) return true;
  }
  return exactDateTime.validate(value);
}

/**
 * `http(s)://host[:port][/path][?query][#fragment]` with only letters, digits and `-._~!$&'()*+,;=:@` (no
 * percent-escapes, user info or IP literal): a subset of RFC 3986 URIs. Others get the exact format's answer.
 * (A regular expression without nested repetition: V8 compiles it to machine code, faster here than a loop over
 * char codes. A path is `/` then segment characters and `/`, which is `(/segment)*`.)
 */
const COMMON_URI = /^https?:\/\/[a-zA-Z0-9\-.]+(?::[0-9]*)?(?:\/[a-zA-Z0-9\-._~!$&'()*+,;=:@/]*)?(?:\?[a-zA-Z0-9\-._~!$&'()*+,;=:@/?]*)?(?:#[a-zA-Z0-9\-._~!$&'()*+,;=:@/?]*)?$/;

export function uri(value: string): boolean {
  return COMMON_URI.test(value) || exactUri(value);
}

/** The formats object the standalone code reads: ajv-formats' exact formats, with the two above in their place. */
export const formats: Record<string, unknown> = { ...fullFormats, 'date-time': dateTime, uri };
