import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { JobEvents } from './job-events';
import { JobEntity } from './job.entity';

@Module({
  imports: [TypeOrmModule.forFeature([JobEntity])],
  providers: [JobEvents],
  exports: [JobEvents, TypeOrmModule],
})
export class JobsModule {}
