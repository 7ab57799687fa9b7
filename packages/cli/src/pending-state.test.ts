import { describe, expect, it } from 'vitest';
import { pendingState } from './pending-state.js';

describe('pendingState', () => {
  it('keeps the words of an answer without a fetch', () => {
    expect(pendingState('queued', undefined)).toBe('pending (queued)');
    expect(pendingState('not uploaded', undefined)).toBe('pending (not uploaded)');
  });

  it('says where a registry fetch stands', () => {
    expect(pendingState('queued', { state: 'fetching', reason: null, expected_by: null })).toBe('pending (fetching from the registry)');
    expect(pendingState('queued', { state: 'fetching', reason: 'registry_unavailable: x: 500', expected_by: null })).toBe('pending (fetching from the registry, retrying: registry_unavailable: x: 500)');
    expect(pendingState('queued', { state: 'queued_for_evaluation', reason: null, expected_by: new Date('2026-11-29T18:00:00.000Z') })).toBe('pending (fetched, queued for evaluation, verdict expected by 2026-11-29 18:00:00Z)');
    expect(pendingState('queued', { state: 'queued_for_evaluation', reason: null, expected_by: null })).toBe('pending (fetched, queued for evaluation)');
    expect(pendingState('not uploaded', { state: 'failed', reason: 'unpublished: gone@1.0.0: unpublished', expected_by: null })).toBe('pending (fetch failed: unpublished: gone@1.0.0: unpublished)');
  });
});
