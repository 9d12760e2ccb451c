import type { PlanId } from '../plans';

export const DEPLOYMENT_STATUSES = ['provisioning', 'live', 'failed', 'deleted'] as const;
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];

/** The provisioning steps, in the order they run. */
export const DEPLOYMENT_STEPS = ['create_app', 'allocate_ips', 'create_volume', 'create_machine', 'start_machine', 'health_check'] as const;
export type DeploymentStepName = (typeof DEPLOYMENT_STEPS)[number];

export const DEPLOYMENT_STEP_LABELS: Record<DeploymentStepName, string> = {
  create_app: 'Create the Fly.io app',
  allocate_ips: 'Allocate public IP addresses',
  create_volume: 'Create a 5 GB volume',
  create_machine: 'Create the n8n machine',
  start_machine: 'Wait for the machine to start',
  health_check: 'Wait for n8n to answer',
};

/** `undone`: the step had succeeded and was rolled back after a later step failed. */
export const STEP_STATES = ['pending', 'running', 'done', 'failed', 'undone'] as const;
export type DeploymentStepState = (typeof STEP_STATES)[number];

export interface DeploymentStep {
  name: DeploymentStepName;
  label: string;
  state: DeploymentStepState;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
}

/** One deployment as the API answers it (GET /api/deploy/n8n and the `deployment` server-sent event). */
export interface Deployment {
  deployment_id: string;
  name: string;
  app_name: string;
  status: DeploymentStatus;
  url: string;
  region: string;
  ram_mb: number;
  estimated_monthly_cost: number;
  /** The step that failed and why, when status is failed. */
  failed_step: DeploymentStepName | null;
  error: string | null;
  created_at: string;
  finished_at: string | null;
  deleted_at: string | null;
  steps: DeploymentStep[];
}

/** 202 answer of POST /api/deploy/n8n. */
export interface DeploymentStarted {
  status: 'started';
  message: string;
  deployment_id: string;
}

/** The 403 `detail` when the plan's deployments for this month are used up. */
export type DeploymentLimitExceeded = {
  error: 'N8N deployment limit exceeded';
  plan: PlanId;
  deployments_used: number;
  deployments_quota: number;
};
