import type { CallbackDelivery } from '@cronbeam/shared/jobs/run-callbacks';

/** GET /prog/jobs/{job_id}/callback-deliveries: its schema and example. */
export const CALLBACK_DELIVERIES_SCHEMA = {
  type: 'object',
  required: ['deliveries'],
  properties: {
    deliveries: {
      type: 'array',
      items: {
        type: 'object',
        required: ['delivery_id', 'run_id', 'attempt', 'status', 'response_code', 'error', 'created_at'],
        properties: {
          delivery_id: { type: 'string', format: 'uuid' },
          run_id: { type: 'string', format: 'uuid', description: 'The run whose outcome the callback carried (its run_id in the logs and in the callback body).' },
          attempt: { type: 'integer', minimum: 1, description: 'Which attempt to deliver this callback (1 to 3).' },
          status: { type: 'string', enum: ['delivered', 'failed'] },
          response_code: { type: 'integer', nullable: true },
          error: { type: 'string', nullable: true },
          created_at: { type: 'string', format: 'date-time' },
        },
      },
    },
  },
};

export const CALLBACK_DELIVERIES_EXAMPLE: { deliveries: CallbackDelivery[] } = {
  deliveries: [
    {
      delivery_id: '5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f',
      run_id: '0e4a5b6c-7d8e-4f90-a1b2-c3d4e5f60718',
      attempt: 1,
      status: 'delivered',
      response_code: 200,
      error: null,
      created_at: '2026-01-01T02:00:01.250Z',
    },
  ],
};
