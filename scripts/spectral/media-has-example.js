/** Every request or response body documents at least one example (`example` or `examples`), for readers and the mock. */
export default function mediaHasExample(media) {
  if (!media || typeof media !== 'object') return [];
  const named = media.examples && Object.keys(media.examples).length > 0;
  if ('example' in media || named) return [];
  return [{ message: 'Body has no example: add a named example under `examples`' }];
}
