/** POST, PUT, PATCH and DELETE accept a JSON body (Part 1 §1), or a multipart one for uploads. */
export default function writeAcceptsBody(operation) {
  const types = Object.keys(operation?.requestBody?.content ?? {});
  if (!types.some((t) => t === 'application/json' || t === 'multipart/form-data')) {
    return [{ message: 'Write operation must accept an application/json (or multipart/form-data) request body' }];
  }
  return [];
}
