import { Injectable } from '@nestjs/common';
import { Subject } from 'rxjs';
import type { Deployment } from '@cronbeam/shared/deployments/deployment-types';

export interface DeploymentChange {
  accountId: string;
  deployment: Deployment;
}

/** Every change of a deployment (a step started or ended, live, failed, deleted), for the SSE stream. */
@Injectable()
export class DeploymentEvents {
  private readonly subject = new Subject<DeploymentChange>();
  readonly changes$ = this.subject.asObservable();

  publish(change: DeploymentChange): void {
    this.subject.next(change);
  }
}
