/** Request bodies, and the media types of a body or a response with their schemas. */
import type { Comparison, Direction, Json } from './comparison.ts';
import { compareSchema } from './schemas.ts';

export function compareRequestBody(c: Comparison, at: string, rawOld: unknown, rawCurrent: unknown) {
  const old = c.before.get<Json | undefined>(rawOld);
  const current = c.after.get<Json | undefined>(rawCurrent);
  if (!old && !current) return;
  const where = `${at} › body`;
  if (!old) {
    c.addEither(current!.required === true, ['request-body-added-required', 'request-body-added'], where);
    return;
  }
  if (!current) {
    c.add('breaking', 'request-body-removed', where);
    return;
  }
  if (old.required !== true && current.required === true) c.add('breaking', 'request-body-newly-required', where);
  compareContent(c, 'request', where, old.content as Json | undefined, current.content as Json | undefined);
}

/** The media types of a `content` map: each removed one breaks, each kept one's schema is compared. */
export function compareContent(c: Comparison, direction: Direction, at: string, old: Json = {}, current: Json = {}) {
  for (const [type, media] of Object.entries(old)) {
    const next = current[type];
    if (!next) c.add('breaking', `${direction}-media-type-removed`, `${at} ${type}`);
    else compareSchema(c, direction, `${at} ${type}`, (media as Json).schema, (next as Json).schema);
  }
  for (const type of Object.keys(current))
    if (!(type in old)) c.add('compatible', `${direction}-media-type-added`, `${at} ${type}`);
}
