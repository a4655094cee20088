import { describe, expect, it } from 'vitest';
import { resolve } from '../packages/server/src/openapi-model.ts';
import { listOperations, listResponses } from '../generators/lib/document.ts';
import type { OpenApiDocument } from '../generators/lib/openapi.ts';
import { publishedDocument } from './support/documents.ts';

/**
 * The state tables of users, members, invitations and runners, applied to every documented example of their
 * operations: a runner's status agrees with `online` and `contacted_at` (a `never_contacted` runner has no contact
 * time), the deprecated fields say what they are documented to say, an invitation result is either a success
 * without failures or an error naming each failure, and roles and expiries have their documented shapes.
 */
type Body = Record<string, unknown>;
const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);

const RUNNER_STATUSES = ['online', 'offline', 'stale', 'never_contacted'];
const ACCESS_LEVELS = [0, 5, 10, 20, 30, 40, 50];

function runnerProblems(runner: Body): string[] {
  const problems: string[] = [];
  const status = runner.status as string;
  if (!RUNNER_STATUSES.includes(status)) problems.push(`status ${status} is not a runner status`);
  if (status === 'online' && runner.online !== true) problems.push('an online runner has online: true');
  if (status !== 'online' && runner.online === true) problems.push(`a ${status} runner is not online`);
  if (status === 'never_contacted' && 'contacted_at' in runner && runner.contacted_at !== null)
    problems.push('a never_contacted runner has contacted_at: null');
  if (status !== 'never_contacted' && 'contacted_at' in runner && runner.contacted_at === null)
    problems.push(`a ${status} runner has contacted the service (contacted_at set)`);
  if ('ip_address' in runner && runner.ip_address !== '' && runner.ip_address !== null)
    problems.push('the deprecated ip_address is an empty string or null');
  if ('active' in runner && runner.active === runner.paused)
    problems.push('the deprecated active is the opposite of paused');
  if ('token' in runner) problems.push('runner records no longer carry token');
  return problems;
}

function invitationResultProblems(result: Body): string[] {
  if (result.status === 'success') return 'message' in result ? ['a success names no failures'] : [];
  if (result.status !== 'error') return [`status ${String(result.status)} is neither success nor error`];
  const message = result.message;
  if (!isObject(message) || Object.keys(message).length === 0)
    return ['an error maps each failing e-mail or user to a reason'];
  return Object.values(message).every((reason) => typeof reason === 'string') ? [] : ['each reason is a text'];
}

function membershipProblems(record: Body): string[] {
  const problems: string[] = [];
  if (!ACCESS_LEVELS.includes(record.access_level as number))
    problems.push(`access_level ${String(record.access_level)} is not a role`);
  if ('expires_at' in record && record.expires_at !== null && typeof record.expires_at !== 'string')
    problems.push('expires_at is a date or null (no expiry)');
  if ('state' in record && typeof record.state !== 'string') problems.push('state is a string');
  return problems;
}

/** Every example value of the operation's 2xx JSON responses, flattened to records (list items included). */
function exampleRecords(
  doc: OpenApiDocument,
  operationIds: (id: string) => boolean,
): { where: string; record: Body }[] {
  const out: { where: string; record: Body }[] = [];
  for (const entry of listOperations(doc).filter((e) => operationIds(e.operationId))) {
    for (const { status, json } of listResponses(doc, entry)) {
      if (!status.startsWith('2') || !json) continue;
      for (const [name, raw] of Object.entries(json.content.examples ?? {})) {
        const value = (resolve(doc, raw) as { value?: unknown }).value;
        const records = Array.isArray(value) ? value : [value];
        records.forEach((record, i) => {
          if (isObject(record))
            out.push({
              where: `${entry.operationId} ${status} ${name}${Array.isArray(value) ? `[${i}]` : ''}`,
              record,
            });
        });
      }
    }
  }
  return out;
}

const doc = publishedDocument();

describe('runner status table', () => {
  const runners = exampleRecords(
    doc,
    (id) => id.startsWith('runners/') && !id.includes('jobs') && id !== 'runners/create-user-runner',
  ).filter(({ record }) => 'runner_type' in record);

  it('covers every status the examples use, including never_contacted', () => {
    expect(runners.length).toBeGreaterThan(5);
    expect(new Set(runners.map(({ record }) => record.status))).toContain('never_contacted');
  });

  it.each(runners.map(({ where, record }) => [where, record] as const))('%s obeys the table', (_where, record) => {
    expect(runnerProblems(record)).toEqual([]);
  });

  it('flags bodies that break the table', () => {
    const base = {
      id: 1,
      paused: false,
      active: true,
      online: false,
      status: 'never_contacted',
      contacted_at: null,
      ip_address: '',
    };
    expect(runnerProblems(base)).toEqual([]);
    expect(runnerProblems({ ...base, contacted_at: '2025-03-12T08:00:00Z' })).toEqual([
      'a never_contacted runner has contacted_at: null',
    ]);
    expect(runnerProblems({ ...base, status: 'online' })).toContain('an online runner has online: true');
    expect(runnerProblems({ ...base, status: 'offline', online: true })).toContain('a offline runner is not online');
    expect(runnerProblems({ ...base, status: 'paused' })).toContain('status paused is not a runner status');
    expect(runnerProblems({ ...base, ip_address: null })).toEqual([]);
    expect(runnerProblems({ ...base, ip_address: '10.0.0.1' })).toEqual([
      'the deprecated ip_address is an empty string or null',
    ]);
    expect(runnerProblems({ ...base, active: false })).toEqual(['the deprecated active is the opposite of paused']);
  });
});

describe('invitation results', () => {
  const results = exampleRecords(doc, (id) => /^invitations\/create-/.test(id));

  it('document both outcomes', () => {
    expect(new Set(results.map(({ record }) => record.status))).toEqual(new Set(['success', 'error']));
  });

  it.each(results.map(({ where, record }) => [where, record] as const))('%s obeys the table', (_where, record) => {
    expect(invitationResultProblems(record)).toEqual([]);
  });

  it('flags results that break the table', () => {
    expect(invitationResultProblems({ status: 'success', message: {} })).toEqual(['a success names no failures']);
    expect(invitationResultProblems({ status: 'error', message: {} })).toEqual([
      'an error maps each failing e-mail or user to a reason',
    ]);
    expect(invitationResultProblems({ status: 'error' })).toEqual([
      'an error maps each failing e-mail or user to a reason',
    ]);
    expect(invitationResultProblems({ status: 'error', message: { 'a@example.com': 3 } })).toEqual([
      'each reason is a text',
    ]);
  });
});

describe('memberships and invitations', () => {
  const records = exampleRecords(
    doc,
    (id) => /^(members|invitations)\/(list|get|update)-/.test(id) && !id.includes('billable-member-memberships'),
  ).filter(({ record }) => 'access_level' in record);

  it('include a record without expiry', () => {
    expect(records.length).toBeGreaterThan(5);
    expect(records.some(({ record }) => record.expires_at === null)).toBe(true);
  });

  it.each(records.map(({ where, record }) => [where, record] as const))('%s obeys the table', (_where, record) => {
    expect(membershipProblems(record)).toEqual([]);
  });

  it('flags records that break the table', () => {
    expect(membershipProblems({ access_level: 35 })).toEqual(['access_level 35 is not a role']);
    expect(membershipProblems({ access_level: 30, expires_at: 20251231 })).toEqual([
      'expires_at is a date or null (no expiry)',
    ]);
  });
});
