/**
 * Streamable HTTP: `POST /mcp` answered by a fresh server and transport per request (stateless: no session to keep,
 * any number of clients). Only the Host names of the address it listens on are served (DNS rebinding protection).
 */
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpServer, type ToolService, type McpServerOptions } from './server.ts';

export interface RunningHttp {
  /** `http://127.0.0.1:PORT/mcp` */
  url: string;
  close(): Promise<void>;
}

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  options: McpServerOptions,
  service: ToolService,
  hosts: string[],
): Promise<void> {
  if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/mcp') return reply(res, 404, 'Not found: use /mcp');
  if (req.method !== 'POST') return reply(res, 405, 'Method not allowed: this server is stateless, POST only');
  const server = createMcpServer(options, service);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    enableDnsRebindingProtection: true,
    allowedHosts: hosts,
  });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}

/** Serves the tools over Streamable HTTP on `host:port` (port 0: a free one). */
export async function startHttp(
  options: McpServerOptions,
  service: ToolService,
  listen: { host: string; port: number },
): Promise<RunningHttp> {
  let hosts: string[] = [];
  const http: HttpServer = createServer((req, res) => {
    handle(req, res, options, service, hosts).catch(() => {
      if (!res.headersSent) reply(res, 500, 'Internal error');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(listen.port, listen.host, resolve);
  });
  const { port } = http.address() as AddressInfo;
  const names = listen.host === '127.0.0.1' || listen.host === 'localhost' ? ['127.0.0.1', 'localhost'] : [listen.host];
  hosts = names.map((name) => `${name}:${port}`);
  return {
    url: `http://${listen.host.includes(':') ? `[${listen.host}]` : listen.host}:${port}/mcp`,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}
