import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Injectable } from '@nestjs/common';

/** This process's identity as the owner of run leases: unique per start, readable in the database. */
@Injectable()
export class LeaseOwner {
  /** What every owner in this process starts with (tests run several applications in one process). */
  static readonly processPrefix = `${hostname()}:${process.pid}:`;
  readonly id = `${LeaseOwner.processPrefix}${randomBytes(3).toString('hex')}`;
}
