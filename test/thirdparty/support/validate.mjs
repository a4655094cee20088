// Runs one validator on one document, on the Node the test chose, and prints what it said as JSON:
// { "valid": boolean, "messages": [...] }. `node validate.mjs <swagger-parser|scalar|readme> <document>`.
import { readFile } from 'node:fs/promises';

const [validator, document] = process.argv.slice(2);
const text = (error) => (error instanceof Error ? `${error.name}: ${error.message}` : JSON.stringify(error));

async function validate() {
  if (validator === 'swagger-parser') {
    const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
    try {
      await SwaggerParser.validate(document);
      return { valid: true, messages: [] };
    } catch (error) {
      return { valid: false, messages: [text(error)] };
    }
  }
  if (validator === 'scalar') {
    const { validate } = await import('@scalar/openapi-parser');
    const result = await validate(await readFile(document, 'utf8'));
    return { valid: result.valid, messages: (result.errors ?? []).map((e) => `${e.path ?? ''} ${e.message}`.trim()) };
  }
  if (validator === 'readme') {
    const { validate } = await import('@readme/openapi-parser');
    try {
      const result = await validate(document);
      const messages = [...(result.errors ?? []), ...(result.warnings ?? [])].map((e) => e.message ?? text(e));
      return { valid: result.valid !== false && messages.length === 0, messages };
    } catch (error) {
      return { valid: false, messages: [text(error)] };
    }
  }
  throw new Error(`unknown validator ${validator}`);
}

console.log(JSON.stringify(await validate()));
