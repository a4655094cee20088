import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
addFormats(ajv);
ajv.addFormat('binary', true);

function clean(schema) {
  if (Array.isArray(schema)) return schema.map(clean);
  if (!schema || typeof schema !== 'object') return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'example' || key === 'discriminator' || key.startsWith('x-')) continue;
    out[key] = clean(value);
  }
  return out;
}

/**
 * Validators by the text of their cleaned schema: the bundle repeats the same schemas (the shared error bodies, the
 * records of each domain) in hundreds of places, and Spectral hands each one over dereferenced, as a new object.
 */
const compiled = new Map();

function validatorFor(schema) {
  const cleaned = clean(schema);
  const key = JSON.stringify(cleaned);
  let entry = compiled.get(key);
  if (!entry) {
    try {
      entry = { validate: ajv.compile(cleaned) };
    } catch (error) {
      entry = { error };
    }
    compiled.set(key, entry);
  }
  return entry;
}

/**
 * Every example of a media type or parameter (`example`, and each of `examples`) is valid against its schema,
 * formats included (JSON Schema 2020-12, as OpenAPI 3.1 specifies).
 */
export default function exampleMatchesSchema(target) {
  const schema = target?.schema;
  if (!schema || typeof schema !== 'object') return [];
  const { validate, error } = validatorFor(schema);
  if (error) return [{ message: `Schema cannot be compiled: ${error.message}`, path: ['schema'] }];
  const examples = [];
  if ('example' in target) examples.push([['example'], target.example]);
  for (const [name, example] of Object.entries(target.examples ?? {})) {
    if (example && typeof example === 'object' && 'value' in example)
      examples.push([['examples', name, 'value'], example.value]);
  }
  const problems = [];
  for (const [path, value] of examples) {
    if (validate(value)) continue;
    const detail = validate.errors.map((e) => `${e.instancePath || '(root)'} ${e.message}`).join('; ');
    problems.push({ message: `Example does not match its schema: ${detail}`, path });
  }
  return problems;
}
