// Requests Node's HTTP parser refuses (bad request line, unknown method, headers over 64 KiB:
// http/header-size.ts answers those over 16 KiB in each operation's own format)
// never reach Koa. Answer them with the error envelope and a request id anyway, instead of
// Node's bare "400 Bad Request", and close the connection.
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from '../errors/api-error.js';
import { failure } from './envelope.js';

export function answerMalformedRequests(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const apiError = tooLarge
      ? new ApiError('headers_too_large')
      : new ApiError('invalid_parameter', 'The request is not valid HTTP.', [{ field: 'request', issue: 'could not be parsed as HTTP/1.1' }]);
    const requestId = randomUUID();
    const body = JSON.stringify(failure(apiError, requestId));
    socket.end(
      `HTTP/1.1 ${apiError.status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
