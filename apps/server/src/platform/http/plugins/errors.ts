import { describeError, type ErrorCode, type ValidationIssue } from '@vigil/core';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isUniqueViolation } from '../../unique-violation.js';
import { isUpstreamUnavailable } from '../../upstream-unavailable.js';
import { VigilError } from '../../errors.js';
import { closeWithoutReading } from '../close-unread.js';

/** fastify's own errors, by code, onto the catalogue. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'bad_request',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'bad_request',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
  FST_ERR_CTP_BODY_TOO_LARGE: 'body_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_NOT_FOUND: 'route_not_found',
};

/** Other client errors (from fastify or its plugins), by status. */
const CLIENT_STATUSES: Record<number, ErrorCode> = {
  400: 'bad_request',
  404: 'route_not_found',
  405: 'method_not_allowed',
  411: 'length_required',
  413: 'body_too_large',
  415: 'unsupported_media_type',
  422: 'validation_error',
  429: 'rate_limited',
};

function validationIssues(error: FastifyError): ValidationIssue[] {
  const where = error.validationContext ?? 'request';
  return (error.validation ?? []).map((item) => {
    const missing = (item.params as { missingProperty?: unknown } | undefined)?.missingProperty;
    const pointer = item.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const field = typeof missing === 'string' ? [pointer, missing].filter(Boolean).join('.') : pointer;
    return { path: field ? `${where}.${field}` : where, message: item.message ?? 'invalid' };
  });
}

/** The catalogue error an error stands for, or undefined when it is a bug (500). */
export function toVigilError(error: unknown): VigilError | undefined {
  if (error instanceof VigilError) return error;
  if (typeof error !== 'object' || error === null) return undefined;
  if (isUpstreamUnavailable(error)) return new VigilError('upstream_unavailable', { cause: error });
  if (isUniqueViolation(error)) return new VigilError('conflict', { cause: error });
  const fastifyError = error as FastifyError;
  if (Array.isArray(fastifyError.validation)) {
    return new VigilError('validation_error', { issues: validationIssues(fastifyError) });
  }
  const byCode = typeof fastifyError.code === 'string' ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (byCode) return new VigilError(byCode);
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new VigilError(CLIENT_STATUSES[status] ?? 'bad_request');
  }
  return undefined;
}

/**
 * The request declared a body that has not all arrived: a refusal answered before reading it (a bad
 * key, a missing scope, a rate limit) would otherwise keep the connection open while Node reads and
 * discards up to the declared length, e.g. 64 MiB an unauthenticated client chose to send.
 */
function bodyStillArriving(request: FastifyRequest): boolean {
  return Number(request.headers['content-length'] ?? 0) > 0 && !request.raw.complete;
}

/** `Connection: close`, and the connection closed after the answer without reading the rest of the body. */
function closeUnread(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('connection', 'close');
  closeWithoutReading(request.raw);
}

function sendVigilError(error: VigilError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  if (bodyStillArriving(request)) closeUnread(request, reply);
  const body: { detail: string; code: ErrorCode; errors?: ValidationIssue[] } = { detail: error.detail, code: error.code };
  if (error.issues) body.errors = error.issues;
  return reply.code(error.status).type('application/json; charset=utf-8').send(body);
}

const errors: FastifyPluginAsync = async (app) => {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const vigil = toVigilError(error);
    if (vigil) {
      if (vigil.status >= 500) request.log.warn({ code: vigil.code, err: vigil.cause }, vigil.detail);
      return sendVigilError(vigil, request, reply);
    }
    // The stack goes to the log only; the client gets the id to quote.
    request.log.error({ err: error }, 'unhandled error');
    const { status, detail } = describeError('internal_error');
    if (bodyStillArriving(request)) closeUnread(request, reply);
    return reply.code(status).type('application/json; charset=utf-8').send({ detail, code: 'internal_error', request_id: request.id });
  });

  app.setNotFoundHandler((request, reply) =>
    sendVigilError(new VigilError('route_not_found'), request, reply),
  );
};

/** ONE error handler and the not-found handler: every failure leaves as `{detail, code}` from the catalogue. */
export const errorsPlugin = fp(errors, { name: 'vigil-errors', fastify: '5.x' });
