import { describe, expect, it } from 'vitest';
import { Webhook, WebhookCreateRequest, WebhookCreated, WebhookList, WebhookResponse, WebhookUpdateRequest } from './webhooks.js';
import { webhook, webhookCreateRequest, webhookCreated } from '../test-support/fixtures.js';
import { REMOVE, expectAccepted, expectRejectedAt, rejectCase, withChange } from '../test-support/schema-cases.js';

describe('Webhook', () => {
  it('accepts the record shape, alone and in the response envelopes', () => {
    expectAccepted(Webhook, webhook());
    expectAccepted(WebhookResponse, { data: webhook() });
    expectAccepted(WebhookList, { data: [webhook()] });
  });

  it('never carries the secret outside the creation response', () => {
    const parsed = expectAccepted(Webhook, { ...webhook(), secret: 'whsec_x' });
    expect(parsed).not.toHaveProperty('secret');
  });

  it.each([
    rejectCase('an id without the wh_ prefix', ['id'], 'hook_1'),
    rejectCase('an unknown event kind', ['events', 0], 'artifact.deleted'),
    rejectCase('active as a string', ['active'], 'true'),
    rejectCase('a naive created_at', ['created_at'], '2026-11-21T10:00:00.000'),
  ])('rejects $name', ({ path, value }) => {
    expectRejectedAt(Webhook, withChange(webhook(), path, value), path);
  });
});

describe('WebhookCreateRequest and WebhookCreated', () => {
  it('accept the spec shapes', () => {
    expectAccepted(WebhookCreateRequest, webhookCreateRequest());
    expect(expectAccepted(WebhookCreated, webhookCreated()).data.secret).toMatch(/^whsec_/);
  });

  it('accepts an http:// url (the server refuses it unless configured for development)', () => {
    expectAccepted(WebhookCreateRequest, { ...webhookCreateRequest(), url: 'http://hooks.example.com/vigil' });
  });

  it.each([
    rejectCase('an ftp url', ['url'], 'ftp://hooks.example.com/vigil'),
    rejectCase('an IPv6 literal host', ['url'], 'https://[::1]/vigil'),
    rejectCase('a url that is not a url', ['url'], 'hooks.example.com'),
    rejectCase('no events', ['events'], []),
    rejectCase('a duplicated event kind', ['events'], ['verdict.changed', 'verdict.changed']),
    rejectCase('an unknown event kind', ['events', 1], 'verdict.deleted'),
    rejectCase('events missing', ['events'], REMOVE),
  ])('WebhookCreateRequest rejects $name', ({ path, value }) => {
    expectRejectedAt(WebhookCreateRequest, withChange(webhookCreateRequest(), path, value), path);
  });

  it.each([
    rejectCase('a missing secret', ['data', 'secret'], REMOVE),
    rejectCase('a secret without the whsec_ prefix', ['data', 'secret'], 'a'.repeat(40)),
    rejectCase('a secret shorter than 32 characters after the prefix', ['data', 'secret'], `whsec_${'a'.repeat(31)}`),
  ])('WebhookCreated rejects $name', ({ path, value }) => {
    expectRejectedAt(WebhookCreated, withChange(webhookCreated(), path, value), path);
  });
});

describe('WebhookUpdateRequest', () => {
  it.each([
    ['events only', { events: ['attestation.created'] }],
    ['active only', { active: false }],
    ['both', { events: ['repository.verified'], active: true }],
  ])('accepts %s', (_name, body) => {
    expect(expectAccepted(WebhookUpdateRequest, body)).toEqual(body);
  });

  it('accepts a new url', () => {
    expect(expectAccepted(WebhookUpdateRequest, { url: 'https://hooks.example.com/v2' })).toEqual({ url: 'https://hooks.example.com/v2' });
  });

  it('accepts a disabled record', () => {
    expectAccepted(Webhook, { ...webhook(), active: false, disabled_reason: 'gone', disabled_at: '2026-11-21T10:00:00.000+00:00' });
    expectRejectedAt(Webhook, { ...webhook(), disabled_reason: 'tired' }, ['disabled_reason']);
  });

  it('rejects an update that changes nothing', () => {
    expectRejectedAt(WebhookUpdateRequest, {}, []);
  });

  it.each([
    rejectCase('active as a string', ['active'], 'no'),
    rejectCase('empty events', ['events'], []),
    rejectCase('an unknown event kind', ['events', 0], 'all'),
  ])('rejects $name', ({ path, value }) => {
    expectRejectedAt(WebhookUpdateRequest, withChange({ events: ['verdict.changed'], active: true }, path, value), path);
  });
});
