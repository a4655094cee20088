/** The contract-checking proxy on a free port in front of the upstream given as the first argument (the fake). */
import { startProxy } from '../../../packages/proxy/src/index.ts';

const proxy = await startProxy({ upstream: process.argv[2]!, port: 0 });
console.log(`listening ${proxy.url}/api/v4`);
