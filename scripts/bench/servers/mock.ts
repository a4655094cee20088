/** Our mock, started programmatically as `npm run mock` starts it, on a free port. */
import { readFileSync } from 'node:fs';
import { PUBLISHED_JSON } from '../../lib/paths.ts';
import { API_PREFIX, startMock } from '../../mock/server.ts';

const mock = await startMock({ document: JSON.parse(readFileSync(PUBLISHED_JSON, 'utf8')), port: 0, host: '127.0.0.1' });
console.log(`listening ${mock.origin}${API_PREFIX}`);
