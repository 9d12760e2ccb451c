import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Injectable } from '@nestjs/common';

/** This process's identity as the owner of run leases: unique per start, readable in the database. */
@Injectable()
export class LeaseOwner {
  readonly id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}
