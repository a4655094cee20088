/** The mock package (@service-api/mock, from its sources), started programmatically as its command starts it, on a free port. */
import { startMock } from '../../../packages/mock/src/index.ts';

const mock = await startMock({ port: 0, host: '127.0.0.1' });
console.log(`listening ${mock.url}/api/v4`);
