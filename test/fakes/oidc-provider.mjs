// A local OpenID provider for the social sign-in tests: the real `oidc-provider`
// package (ESM only, hence a child process), with the user's login and consent
// screens replaced by an automatic "sign in as the next account" step.
//
// Started by test/fakes/oidc-provider-process.ts. Prints {"issuer": "..."} once listening.
// Environment: CLIENT_ID, CLIENT_SECRET, REDIRECT_URI.
// POST /_test/next-account {sub, email, name, email_verified} chooses who signs in next.
import http from 'node:http';
import Provider from 'oidc-provider';

const accounts = new Map();
let nextAccount;

const server = http.createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: process.env.CLIENT_ID,
      client_secret: process.env.CLIENT_SECRET,
      redirect_uris: [process.env.REDIRECT_URI],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
  ],
  // Like Google: profile and email claims in the ID token itself.
  conformIdTokenClaims: false,
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  pkce: { required: () => true },
  features: { devInteractions: { enabled: false } },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  cookies: { keys: ['oidc-fake-cookie-key'] },
  async findAccount(_ctx, sub) {
    const account = accounts.get(sub);
    return account && { accountId: sub, claims: () => ({ ...account }) };
  },
});

async function finishInteraction(req, res) {
  const details = await provider.interactionDetails(req, res);
  let result;
  if (details.prompt.name === 'login') {
    result = { login: { accountId: nextAccount.sub } };
  } else {
    const grant = new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
    grant.addOIDCScope(details.params.scope);
    result = { consent: { grantId: await grant.save() } };
  }
  await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
}

const handle = provider.callback();
server.on('request', (req, res) => {
  if (req.method === 'POST' && req.url === '/_test/next-account') {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      nextAccount = JSON.parse(body);
      accounts.set(nextAccount.sub, nextAccount);
      res.writeHead(204).end();
    });
    return;
  }
  if (req.url.startsWith('/interaction/')) {
    finishInteraction(req, res).catch((err) => res.writeHead(500).end(String(err)));
    return;
  }
  handle(req, res);
});

process.stdout.write(`${JSON.stringify({ issuer })}\n`);
