/**
 * What a command that serves the API needs (`@service-api/server/command`; the mock, the fake and the proxy use it):
 * its options read with a clear message on a bad one, `--port` and `--host`, a start that explains a port in use,
 * and a stop on SIGINT or SIGTERM, also when npm (npx, npm run) started it.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Prints `✖ text` to stderr and exits with 1. */
export function fail(text: string): never {
  console.error(`✖ ${text}`);
  process.exit(1);
}

export interface CommandSpec<O extends Options> {
  /** One line: `Usage: name [--port 4010] …`. */
  usage: string;
  /** What `--help` prints after the usage line. */
  help?: string;
  /** The command's own options; `--port` (default `$PORT`, else `defaultPort`), `--host` and `--help` are added. */
  options: O;
  defaultPort: number;
}

/** The values of a command's options: a boolean, a string with a default, or a string that may be absent. */
export type CommandValues<O extends Options> = {
  [K in keyof O]: O[K] extends { type: 'boolean' }
    ? boolean
    : O[K] extends { default: string }
      ? string
      : string | undefined;
};

/** The options of a command: `--help` prints the usage and exits 0; an unknown or malformed option exits 1. */
export function readCommand<O extends Options>(
  spec: CommandSpec<O>,
): { values: CommandValues<O>; port: number; host: string } {
  const options: Options = {
    ...spec.options,
    port: { type: 'string', default: process.env.PORT ?? String(spec.defaultPort) },
    host: { type: 'string', default: '127.0.0.1' },
    help: { type: 'boolean', default: false },
  };
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  try {
    values = parseArgs({ options }).values;
  } catch (error) {
    return fail(`${(error as Error).message}\n${spec.usage}`);
  }
  if (values.help) {
    console.log(spec.help ? `${spec.usage}\n${spec.help}` : spec.usage);
    process.exit(0);
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`--port must be a number from 0 to 65535, got "${String(values.port)}"`);
  return { values: values as CommandValues<O>, port, host: String(values.host) };
}

/** Starts a server, or exits with a message a user can act on (a port in use names the option to change). */
export function startOrFail<T>(start: Promise<T>, what: string, port: number): Promise<T> {
  return start.catch((error: NodeJS.ErrnoException) =>
    fail(
      error.code === 'EADDRINUSE'
        ? `Port ${port} is in use: pass --port with a free port`
        : `Could not start the ${what}: ${error.message}`,
    ),
  );
}

/**
 * Stops on SIGINT or SIGTERM, once: `stop` runs, then the process exits 0. Started by npm (npx, npm run), a command
 * runs under `sh -c`, which dies of a SIGTERM without passing it on: once the process that started it is gone, the
 * command stops too instead of holding its port as an orphan.
 */
export function stopOnSignals(stop: () => unknown): void {
  let stopping = false;
  const once = () => {
    if (stopping) return;
    stopping = true;
    void Promise.resolve(stop()).then(() => process.exit(0));
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, once);
  if (process.env.npm_command) {
    const parent = process.ppid;
    setInterval(() => process.ppid !== parent && once(), 250).unref();
  }
}
