import { spawn } from 'node:child_process';

export interface RunResult {
  code: number;
  output: string;
}

/** Runs a command from node_modules/.bin without a shell, capturing stdout and stderr together. */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output: withoutNoise(output) }));
  });
}

/** Drops lines that say nothing about the project: npm's config warnings and the Redocly Node 20 notice box. */
function withoutNoise(output: string): string {
  return output
    .split('\n')
    .filter((line) => !/^npm warn Unknown user config|[║╔╚]/.test(line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
