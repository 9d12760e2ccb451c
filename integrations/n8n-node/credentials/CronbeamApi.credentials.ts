import type { IAuthenticateGeneric, Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * A Cronbeam API key with its owner's user id: every /prog call carries both
 * (X-API-Key and X-User-ID). The credential test is declarative (one
 * authenticated GET /prog/jobs): n8n gives a test function only its
 * deprecated `request` helper, which its package scanner refuses. Its rules
 * tell a rejected key (401) from a Base URL without the API (404).
 */
export class CronbeamApi implements ICredentialType {
  name = 'cronbeamApi';

  displayName = 'Cronbeam API';

  icon: Icon = { light: 'file:../icons/cronbeam.svg', dark: 'file:../icons/cronbeam.dark.svg' };

  documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-cronbeam#credentials';

  properties: INodeProperties[] = [
    {
      displayName: 'Base URL',
      name: 'baseUrl',
      type: 'string',
      default: '',
      required: true,
      placeholder: 'https://app.cronbeam.io',
      description: 'Where your Cronbeam service answers, without a path (the node calls {Base URL}/prog/...)',
    },
    {
      displayName: 'API Key',
      name: 'apiKey',
      type: 'string',
      typeOptions: { password: true },
      default: '',
      required: true,
      description: 'Generate one in the Cronbeam dashboard under API keys; it is shown only once',
    },
    {
      displayName: 'User ID',
      name: 'userId',
      type: 'string',
      default: '',
      required: true,
      description: 'Shown with the key when you generate it; sent as X-User-ID with every call',
    },
  ];

  authenticate: IAuthenticateGeneric = {
    type: 'generic',
    properties: {
      headers: {
        'X-API-Key': '={{$credentials.apiKey}}',
        'X-User-ID': '={{$credentials.userId}}',
      },
    },
  };

  test: ICredentialTestRequest = {
    request: { baseURL: '={{$credentials.baseUrl}}', url: '/prog/jobs', method: 'GET' },
    rules: [
      {
        type: 'responseCode',
        properties: { value: 401, message: 'Cronbeam refused the API key: check the key (keys can be revoked) and that the User ID is the one shown with it' },
      },
      {
        type: 'responseCode',
        properties: { value: 404, message: 'No Cronbeam API at this Base URL (GET /prog/jobs answered 404): give the address of the service, without a path' },
      },
    ],
  };
}
