/** The part of autocannon's API the bench uses (the package ships no types). */
declare module 'autocannon' {
  interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Called before each request: what it returns is sent (a body of its own per request). */
    requests?: { setupRequest(request: object): object }[];
    connections?: number;
    duration?: number;
  }
  interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    requests: { total: number };
    latency: { p99: number };
  }
  function autocannon(options: Options, done: (error: unknown, result: Result) => void): unknown;
  export default autocannon;
}
