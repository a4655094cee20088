/** The load generator's own process: runs autocannon for each job the bench sends and answers with its figures. */
import autocannon from 'autocannon';

export interface LoadJob {
  url: string;
  method: string;
  headers: Record<string, string>;
  /**
   * Each `[<n>]` in it becomes the request's number, counted per server (per origin of `url`) across the whole run:
   * each request to a server its own, from 0 (the stateful fake holds that many numbered branches).
   */
  body?: string;
  connections: number;
  durationS: number;
}

export interface LoadResult {
  requests: number;
  rps: number;
  errors: number;
  non2xx: number;
  p99Ms: number;
}

const REQUEST_NUMBER = '[<n>]';
const requestNumbers = new Map<string, number>();

process.on('message', (job: LoadJob) => {
  const body = job.body;
  const server = new URL(job.url).origin;
  const nextNumber = () => {
    const n = requestNumbers.get(server) ?? 0;
    requestNumbers.set(server, n + 1);
    return n;
  };
  const requests = body?.includes(REQUEST_NUMBER)
    ? [
        {
          setupRequest: (request: object) => ({
            ...request,
            body: body.replaceAll(REQUEST_NUMBER, String(nextNumber())),
          }),
        },
      ]
    : undefined;
  autocannon(
    {
      url: job.url,
      method: job.method as 'GET',
      headers: job.headers,
      body,
      requests,
      connections: job.connections,
      duration: job.durationS,
    },
    (error, result) => {
      if (error) return process.send!({ error: String(error) });
      const requests = result.requests.total;
      process.send!({
        requests,
        rps: requests / (result.duration || job.durationS),
        errors: result.errors + result.timeouts,
        non2xx: result.non2xx,
        p99Ms: result.latency.p99,
      } satisfies LoadResult);
    },
  );
});
process.send!({ ready: true });
