import type { Deployment } from '@cronbeam/shared/deployments/deployment-types';
import { DEPLOYMENT_STEP_LABELS } from '@cronbeam/shared/deployments/deployment-types';
import { findRegion } from '@cronbeam/shared/deployments/regions';
import type { MailMessage } from '../mail/mail.service';

const regionName = (code: string) => findRegion(code)?.name ?? code;

/** Sent when the instance answers: where it is, and how to sign in (the password is the account's own, never repeated). */
export function deploymentLiveMail(to: string, deployment: Deployment, username: string, dashboardUrl: string): MailMessage {
  return {
    to,
    subject: `Cronbeam: your n8n instance "${deployment.name}" is live`,
    text: [
      `Your n8n instance is live at ${deployment.url}`,
      '',
      `Sign in with the username "${username}" and the password you chose when deploying.`,
      `Region: ${regionName(deployment.region)} (${deployment.region}), ${deployment.ram_mb} MB RAM, estimated $${deployment.estimated_monthly_cost.toFixed(2)} a month on your Fly.io bill.`,
      '',
      'Cronbeam did not keep your Fly.io token: it was deleted once the instance was created.',
      `Your deployments: ${dashboardUrl}`,
    ].join('\n'),
  };
}

/** Sent when provisioning failed: which step, why, and what (if anything) is left on Fly. */
export function deploymentFailedMail(to: string, deployment: Deployment, dashboardUrl: string): MailMessage {
  const step = deployment.failed_step ? DEPLOYMENT_STEP_LABELS[deployment.failed_step] : 'Provisioning';
  return {
    to,
    subject: `Cronbeam: your n8n deployment "${deployment.name}" failed`,
    text: [
      `The deployment of "${deployment.name}" failed at the step "${step}".`,
      '',
      `Reason: ${deployment.error ?? 'unknown'}`,
      '',
      `Details and the state of every step: ${dashboardUrl}`,
      'It did not count against your monthly deployment quota.',
    ].join('\n'),
  };
}
