import type { IAuthenticateGeneric, Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * A Cronbeam API key with its owner's user id: every /prog call carries both
 * (X-API-Key and X-User-ID). The credential test lives on the nodes
 * (`testedBy`), because it makes two calls: the unauthenticated ping tells an
 * unreachable or wrong base URL apart from a rejected key.
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
}
