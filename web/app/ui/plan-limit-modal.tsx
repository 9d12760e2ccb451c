import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Modal } from './modal';

interface PlanLimitModalProps {
  title: string;
  /** What ran out, in one sentence. */
  message: ReactNode;
  plan: string;
  usageLabel: string;
  used: number;
  allowed: number;
  /** The ways out (wait, delete, upgrade). */
  advice: ReactNode;
  onClose(): void;
  /** Shown after the advice, e.g. every plan's limit. */
  children?: ReactNode;
}

/**
 * The dialog shown when a plan limit refuses an action: the plan, how much of the
 * limit is used, the ways out, and a way to the pricing page.
 */
export function PlanLimitModal({ title, message, plan, usageLabel, used, allowed, advice, onClose, children }: PlanLimitModalProps) {
  return (
    <Modal
      title={title}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Close
          </button>
          <Link to="/pricing" className="button button-primary">
            View Plans
          </Link>
        </>
      }
    >
      <p>{message}</p>
      <dl className="detail-grid">
        <dt>Plan</dt>
        <dd className="plan-name">{plan}</dd>
        <dt>{usageLabel}</dt>
        <dd>
          {used} / {allowed}
        </dd>
      </dl>
      <p className="muted">{advice}</p>
      {children}
    </Modal>
  );
}
