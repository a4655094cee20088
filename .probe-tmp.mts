import { startFake } from './fake/src/index.ts';
const fake = await startFake({ validateResponses: true });
const get = async (path: string, init?: RequestInit) => { const r = await fetch(fake.url + '/api/v4' + path, { headers: { 'PRIVATE-TOKEN': 'developer-token' }, ...init }); console.log(r.status, path, (await r.text()).slice(0, 150)); };
for (const p of ['__proto__', 'constructor', 'toString']) {
  await get(`/projects/1/repository/files/${p}?ref=main`);
  await get(`/projects/1/repository/files/${p}/raw?ref=main`);
  await get(`/projects/1/repository/files/${p}/blame?ref=main`);
  await get(`/projects/1/repository/files/${p}/blame?ref=main`, { method: 'HEAD' });
  await get(`/projects/1/repository/archive.tar?path=${p}`);
}
await fake.close();
