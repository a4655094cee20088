/** The commands the tests start (service-api-mock, -fake, -proxy): the URL they print once they listen. */
import type { ChildProcess } from 'node:child_process';

/** The `listening on …` lines of the three commands: the API root (mock, fake) and the proxy's root. */
export const API_URL = /listening on (http:\/\/\S+\/api\/v4)/;
export const PROXY_URL = /listening on (http:\/\/\S+?);/;

export interface Listening {
  /** The first group of `pattern` in the command's output; rejects with the output when it exits before printing it. */
  url: Promise<string>;
  /** Everything the command printed so far (stdout and stderr). */
  output: () => string;
  exited: Promise<number | null>;
}

/** Reads a started command's output (its stdout and stderr must be pipes) until `pattern` matches. */
export function printedUrl(child: ChildProcess, pattern: RegExp, name: string): Listening {
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    void exited.then((code) => reject(new Error(`${name} exited with ${code}: ${output}`)));
  });
  return { url, output: () => output, exited };
}
