/**
 * The stateful fake for the load section (sections/fake-load.ts): the default data set plus project 42 (its writes go
 * there), every token the administrator. With FAKE_LOAD_ARCHIVE_MB=N project 42 also holds N files of 1 MB of text
 * that compresses poorly (its archives take seconds to build).
 */
import { createHash } from 'node:crypto';
import { defaultData, startFake } from '../../../packages/fake/src/index.ts';

const data = defaultData();
const files: Record<string, string> = { 'README.md': '# Load\n' };
const megabytes = Number(process.env.FAKE_LOAD_ARCHIVE_MB ?? 0);
for (let file = 0; file < megabytes; file++) {
  const lines: string[] = [];
  for (let i = 0; lines.length * 66 < 1024 * 1024; i++)
    lines.push(createHash('sha256').update(`${file} ${i}`).digest('hex'));
  files[`data/part-${file}.txt`] = `${lines.join(' x\n')}\n`;
}
data.projects.push({
  id: 42,
  name: 'Load',
  path: 'load',
  namespace_id: 1,
  visibility: 'public',
  default_branch: 'main',
  members: [],
  files,
});
const fake = await startFake({ data, anyToken: true, port: 0 });
console.log(`listening ${fake.url}/api/v4`);
