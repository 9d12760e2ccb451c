import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import { JOB_DEFINITION_EXAMPLE, JOB_LIMIT_EXAMPLE, VALIDATION_EXAMPLE } from './prog-examples';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A JSON response with its schema and an example. */
export function JsonResponse(status: number, description: string, schema: object, example: unknown) {
  return ApiResponse({ status, description, content: { 'application/json': { schema, example } } });
}

/** What every key-authenticated /prog operation documents: auth, 401, 429. */
export function ProgOperation(summary: string, description?: string) {
  return applyDecorators(
    ApiOperation({ summary, description }),
    ApiSecurity('ApiKey'),
    ApiSecurity('BearerApiKey'),
    ApiHeader({
      name: 'X-User-ID',
      required: false,
      description: 'The id of the key’s account, shown with the key (for a personal account, your user id); required with X-API-Key, optional with Authorization: Bearer.',
    }),
    JsonResponse(401, 'Missing, unknown or mismatched key and user id', ref('MessageError'), { detail: 'Invalid API key' }),
    ApiResponse({
      status: 429,
      description: 'Too many calls with this key; wait Retry-After seconds',
      headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } },
      content: { 'application/json': { schema: ref('MessageError'), example: { detail: 'Rate limit exceeded for this API key; retry later' } } },
    }),
  );
}

/** The `{job_id}` path parameter and its 404. */
export function JobIdParam() {
  return applyDecorators(
    ApiParam({ name: 'job_id', format: 'uuid', description: 'The job_id returned at creation' }),
    JsonResponse(404, 'No such job among yours', ref('MessageError'), { detail: 'Job not found' }),
  );
}

/** A job definition body and its 422. */
export function JobDefinitionBody() {
  return applyDecorators(
    ApiBody({ schema: ref('JobDefinition'), examples: { job: { summary: 'A nightly POST', value: JOB_DEFINITION_EXAMPLE } } }),
    JsonResponse(422, 'A field is invalid; each entry names the field and the reason', ref('ValidationError'), VALIDATION_EXAMPLE),
  );
}

export function JobLimitResponse() {
  return JsonResponse(403, "The plan's job limit is reached: upgrade or delete a job", { type: 'object', properties: { detail: ref('JobLimitExceeded') } }, JOB_LIMIT_EXAMPLE);
}

export { ref as schemaRef };
