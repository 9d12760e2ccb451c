import { Injectable } from '@nestjs/common';
import { jobDefinitionSchema, type ValidJobDefinition } from '@cronbeam/shared/jobs/job-rules';
import {
  IMPORT_LIMITS,
  IMPORT_MESSAGES,
  candidatesFromCrontab,
  candidatesFromJson,
  exportJobs,
  uniqueName,
  type ImportCandidate,
  type JobExport,
  type JobImportItem,
  type JobImportRequest,
  type JobImportResult,
} from '@cronbeam/shared/jobs/job-transfer';
import type { Job } from '@cronbeam/shared/jobs/job-types';
import { ApiError } from '../../common/http/api-error';
import type { Actor } from '../audit';
import { TeamsService } from '../teams/teams.service';
import { TargetPolicy } from '../executor/target-policy.service';
import { JobLimitService } from '../quota/job-limit.service';
import { toJob } from './job-view';
import { JobsRepository } from './jobs.repository';
import { JobsService } from './jobs.service';

/**
 * Jobs copied from jobs: a clone of one job, the export of all and the
 * import of an export or a crontab. Every job they create goes through
 * JobsService.create, so it is checked and counted like any creation.
 */
@Injectable()
export class JobTransferService {
  constructor(
    private readonly jobs: JobsService,
    private readonly repository: JobsRepository,
    private readonly teams: TeamsService,
    private readonly jobLimit: JobLimitService,
    private readonly targets: TargetPolicy,
  ) {}

  /**
   * A new job with the definition of one of the caller's jobs, named `name`
   * or "<original>-copy" (then -copy-2…), counted toward the plan's job limit
   * like any creation; it starts on its schedule as a new job does.
   */
  async clone(actor: Actor, accountId: string, jobId: string, name: string | undefined): Promise<Job> {
    const original = await this.jobs.findOwned(accountId, jobId);
    const taken = new Set((await this.repository.listOwned(accountId, 'primary')).map((j) => j.name.toLowerCase()));
    const copyName = name ?? uniqueName(`${original.name.slice(0, 45)}-copy`, taken);
    const definition = validDefinition({ ...toJob(original), name: copyName }, ['body', 'name']);
    return this.jobs.create(actor, accountId, definition, 'job.cloned');
  }

  /** Every job's definition, oldest first, in the format import takes back. */
  async exportAll(accountId: string): Promise<JobExport> {
    return exportJobs(await this.jobs.list(accountId, 'replica'));
  }

  /**
   * Creates jobs from an export or a crontab. Each candidate is checked like a
   * creation (job rules, target policy, unique name, the plan's job limit)
   * and either created or refused with its reason; what is created is created
   * in one transaction with one audit entry. A dry run answers the same
   * preview and creates nothing. A crontab's generated names are made unique;
   * an export's names are the user's and a taken one is refused.
   */
  async importJobs(actor: Actor, accountId: string, request: JobImportRequest): Promise<JobImportResult> {
    let candidates: ImportCandidate[];
    try {
      candidates = request.format === 'json' ? candidatesFromJson(request.content) : candidatesFromCrontab(request.content);
    } catch (error) {
      throw ApiError.invalidField(['body', 'content'], (error as Error).message);
    }
    if (candidates.length > IMPORT_LIMITS.maxJobs) throw ApiError.invalidField(['body', 'content'], IMPORT_MESSAGES.tooMany);
    const existing = await this.repository.listOwned(accountId, 'primary');
    const taken = new Set(existing.map((j) => j.name.toLowerCase()));
    const plan = await this.teams.planOf(accountId);
    const maxJobs = this.jobLimit.max(plan);
    // A preview (jobs and monitors count): the creations below take the limit under its lock, and refuse what a concurrent creation took meanwhile.
    let slots = await this.jobLimit.slotsLeft(accountId, plan);
    const items: JobImportItem[] = [];
    for (const candidate of candidates) {
      const refuse = (reason: string, name: string | null = null) =>
        items.push({ source: candidate.source, name, action: 'refuse', reason, definition: null, job_id: null });
      if (!candidate.definition) {
        refuse(candidate.reason ?? IMPORT_MESSAGES.notExport);
        continue;
      }
      const raw = candidate.definition;
      if (request.format === 'crontab' && typeof raw.name === 'string') raw.name = uniqueName(raw.name, taken);
      const rawName = typeof raw.name === 'string' ? raw.name : null;
      const parsed = jobDefinitionSchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        refuse(`${issue.path.join('.') || 'job'}: ${issue.message}`, rawName);
        continue;
      }
      const definition = parsed.data;
      const policyError = this.targetRefusal(definition.url);
      if (policyError) refuse(`url: ${policyError}`, definition.name);
      else if (taken.has(definition.name.toLowerCase())) refuse(`name: ${IMPORT_MESSAGES.duplicateName}`, definition.name);
      else if (slots <= 0) refuse(IMPORT_MESSAGES.limit(maxJobs), definition.name);
      else {
        slots--;
        taken.add(definition.name.toLowerCase());
        items.push({ source: candidate.source, name: definition.name, action: 'create', reason: null, definition, job_id: null });
      }
    }
    if (!request.dry_run) {
      const creations = items.filter((item) => item.action === 'create');
      const outcomes = await this.jobs.importMany(actor, accountId, creations.map((item) => item.definition as ValidJobDefinition), items.length - creations.length);
      creations.forEach((item, i) => {
        const outcome = outcomes[i]!;
        if (outcome instanceof ApiError) Object.assign(item, { action: 'refuse', reason: describeRefusal(outcome.detail), definition: null });
        else item.job_id = outcome.job_id;
      });
    }
    const created = items.filter((i) => i.action === 'create').length;
    return { dry_run: request.dry_run, created, refused: items.length - created, items };
  }

  /** The target policy's message for a URL it refuses, or null. */
  private targetRefusal(url: string): string | null {
    try {
      this.targets.assertAllowed(url);
      return null;
    } catch (error) {
      if (error instanceof ApiError) return describeRefusal(error.detail);
      throw error;
    }
  }
}

/** A definition through the shared job rules; the first issue becomes a 422 on `field`. */
function validDefinition(raw: Record<string, unknown>, field: Array<string | number>): ValidJobDefinition {
  const parsed = jobDefinitionSchema.safeParse(raw);
  if (!parsed.success) throw ApiError.invalidField(field, parsed.error.issues[0]!.message);
  return parsed.data;
}

/** An API error's detail as one line of an import preview. */
function describeRefusal(detail: ApiError['detail']): string {
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) return detail.map((issue) => issue.msg).join('; ');
  return detail.error;
}
