/** Custom attributes of users, groups and projects: how lists select by them and how answers show them. */

/** Custom attributes as the API answers them. */
export function customAttributes(attributes: Record<string, string> | undefined): { key: string; value: string }[] {
  return Object.entries(attributes ?? {}).map(([key, value]) => ({ key, value }));
}

/** Whether a record's custom attributes have every `custom_attributes[key]=value` asked for. */
export function hasCustomAttributes(attributes: Record<string, string> | undefined, wanted: unknown): boolean {
  if (typeof wanted !== 'object' || wanted === null) return true;
  return Object.entries(wanted).every(
    ([key, value]) => Object.hasOwn(attributes ?? {}, key) && attributes![key] === String(value),
  );
}
