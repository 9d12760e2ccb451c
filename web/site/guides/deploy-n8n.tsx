import { PLAN_LIMITS } from '@cronbeam/shared/plans';
import { guidePage } from '../layout/guide-layout';
import { guideBySlug } from './guide-catalog';

function Body() {
  return (
    <>
      <h2>What you get</h2>
      <p>
        The Self-Host N8N section of the dashboard deploys the open-source workflow tool n8n into <em>your own</em> Fly.io account. The instance is
        yours: it runs on your Fly.io bill, keeps its data on a volume in your account, and keeps running if you ever leave Cronbeam. Cronbeam does
        the provisioning and tells you when it is done.
      </p>
      <p>
        Deployments per month depend on the plan: {PLAN_LIMITS.free.deploymentsPerMonth} on Free, {PLAN_LIMITS.basic.deploymentsPerMonth} on
        Basic and {PLAN_LIMITS.pro.deploymentsPerMonth} on Pro. The section needs a signed-in account: <a href="/login">log in</a>, or{' '}
        <a href="/signup">create a free account</a> first.
      </p>

      <h2>Before you start</h2>
      <ul>
        <li>A Fly.io account with a payment method (Fly.io bills the machine and the volume, not Cronbeam).</li>
        <li>
          A Fly.io access token: create one in the Fly.io dashboard under Tokens, or with <code>fly tokens create org</code>. Cronbeam uses it to
          create the app and does not show it again.
        </li>
      </ul>

      <h2>The deployment form</h2>
      <div className="site-table-wrap" tabIndex={0} role="region" aria-label="Table, scrolls sideways on small screens">
        <table>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">What to enter</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>Fly.io token</td>
              <td>The access token from above (the cloud host&apos;s token).</td>
            </tr>
            <tr>
              <td>Subdomain</td>
              <td>
                3-30 characters: lowercase letters, digits and hyphens, starting with a letter. It becomes the instance&apos;s address, such as{' '}
                <code>my-flows.fly.dev</code>.
              </td>
            </tr>
            <tr>
              <td>Region</td>
              <td>Where the machine runs; pick the one closest to the services your workflows call. A cost estimate updates as you choose.</td>
            </tr>
            <tr>
              <td>RAM</td>
              <td>512 MB to 8 GB in steps of 256 MB; 2 GB suits most workflows.</td>
            </tr>
            <tr>
              <td>Deployment name</td>
              <td>A label for the dashboard list, up to 50 characters (some call it the project name).</td>
            </tr>
            <tr>
              <td>Username and password</td>
              <td>The login of the n8n owner account the deployment sets up.</td>
            </tr>
          </tbody>
        </table>
      </div>

      <h2>What happens after Deploy</h2>
      <ol>
        <li>Cronbeam checks the form and your plan&apos;s deployment quota, and answers at once with the address the instance will have.</li>
        <li>In the background it creates the Fly.io app, a volume for n8n&apos;s data and a machine running n8n, then waits for n8n to answer.</li>
        <li>
          When the instance is live you get an email with its link. If a step fails, what was created is removed again and the email says what went
          wrong.
        </li>
      </ol>
      <p>The deployment list in the dashboard shows each instance&apos;s state (provisioning, live or failed) and lets you delete it.</p>

      <h2>After it is live</h2>
      <ul>
        <li>Sign in to n8n with the username and password you chose, and build your first workflow.</li>
        <li>
          Schedule workflows from Cronbeam with a Webhook trigger, and install the Cronbeam community node: see{' '}
          <a href="/guides/monitor-n8n">triggering and monitoring n8n workflows</a>.
        </li>
        <li>Upgrades, backups and scaling are done in your Fly.io account like for any other app.</li>
      </ul>

      <h2>Troubleshooting a deployment</h2>
      <dl>
        <dt>The form refuses the token</dt>
        <dd>Fly.io tokens are long; paste the whole value exactly as it was created (it starts with <code>FlyV1</code>).</dd>
        <dt>The subdomain is taken</dt>
        <dd>Fly.io app names are global: choose another subdomain, for example with your company name in it.</dd>
        <dt>&quot;N8N deployment limit exceeded&quot;</dt>
        <dd>The plan&apos;s deployments for this month are used up. Upgrade, or wait for the next month.</dd>
        <dt>The deployment failed</dt>
        <dd>
          The email says what went wrong. Whatever had been created in your Fly.io account for it was removed again, so you
          can simply deploy again once the cause (for example a Fly.io account without a payment method) is fixed.
        </dd>
      </dl>

      <h2>What it costs</h2>
      <p>
        Fly.io bills the machine by its size and running time and the volume by its size; the form shows an estimate for the region and RAM you
        pick. Some regions cost more than others. Cronbeam counts only the deployment against your plan&apos;s monthly deployments, and the jobs
        that call your workflows against your executions.
      </p>

      <h2>Where to go next</h2>
      <p>
        Back to the <a href="/">Cronbeam home page</a>, or browse all <a href="/guides">guides</a>.
      </p>
    </>
  );
}

export default guidePage(guideBySlug('deploy-n8n'), Body);
