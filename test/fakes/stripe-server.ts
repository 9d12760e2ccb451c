import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Request, type Response } from 'express';
import Stripe from 'stripe';

/**
 * A local stand-in for the parts of Stripe's API that Cronbeam uses, spoken
 * over HTTP to the real `stripe` client (pointed here with host/port/protocol):
 * customers, products, prices (by lookup key), checkout sessions,
 * subscriptions (update, cancel at period end, cancel now) and invoices.
 * Tests drive what Stripe would do on its own (a customer paying on the
 * checkout page, a renewal, a failed payment) and receive the resulting
 * events, signed as Stripe signs them, at the app's webhook.
 */

type Obj = Record<string, any>;

const DAY = 86_400;
const PERIOD_SECONDS = { month: 30 * DAY, year: 365 * DAY } as const;

export interface Delivery {
  eventId: string;
  type: string;
  status: number;
  body: string;
}

export interface StripeStandInOptions {
  secretKey?: string;
  webhookSecret?: string;
}

export class StripeStandIn {
  readonly secretKey: string;
  readonly webhookSecret: string;
  /** Where events go; set once the app listens. */
  webhookUrl: string | null = null;
  /** When false, events only collect in `events` until a test delivers them itself. */
  autoDeliver = true;
  readonly events: Stripe.Event[] = [];
  readonly deliveries: Delivery[] = [];
  /** While true, every API call answers 500 (Stripe having an outage). */
  outage = false;
  /** Every API call the client made, as "METHOD /path". */
  readonly calls: string[] = [];

  readonly customers = new Map<string, Obj>();
  readonly products = new Map<string, Obj>();
  readonly prices = new Map<string, Obj>();
  readonly sessions = new Map<string, Obj>();
  readonly subscriptions = new Map<string, Obj>();
  readonly invoices = new Map<string, Obj>();

  private counter = 0;
  private queue: Promise<void> = Promise.resolve();
  private readonly signer = new Stripe('sk_test_stand_in_signer');

  private constructor(
    private readonly server: Server,
    readonly url: string,
    options: StripeStandInOptions,
  ) {
    this.secretKey = options.secretKey ?? 'sk_test_cronbeam_stand_in';
    this.webhookSecret = options.webhookSecret ?? 'whsec_cronbeam_stand_in';
  }

  static async start(options: StripeStandInOptions = {}): Promise<StripeStandIn> {
    const app = express();
    const server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const { port } = server.address() as AddressInfo;
    const standIn = new StripeStandIn(server, `http://127.0.0.1:${port}`, options);
    standIn.routes(app);
    return standIn;
  }

  /** The value for STRIPE_API_BASE. */
  get apiBase(): string {
    return this.url;
  }

  /** Environment for a test server that bills through this stand-in. */
  serverEnv(): Record<string, string> {
    return { STRIPE_SECRET_KEY: this.secretKey, STRIPE_WEBHOOK_SECRET: this.webhookSecret, STRIPE_API_BASE: this.apiBase };
  }

  /** Creates the four prices with their lookup keys, as `npm run billing:setup` does. */
  seedPrices(): void {
    const amounts: Record<string, [string, 'month' | 'year', number]> = {
      basic_monthly: ['basic', 'month', 980],
      basic_annual: ['basic', 'year', 9480],
      pro_monthly: ['pro', 'month', 5990],
      pro_annual: ['pro', 'year', 44400],
    };
    for (const [key, [plan, interval, amount]] of Object.entries(amounts)) {
      const productId = `cronbeam_${plan}`;
      if (!this.products.has(productId)) this.products.set(productId, { id: productId, object: 'product', name: plan, active: true, metadata: {} });
      this.createPrice({ product: productId, unit_amount: amount, currency: 'usd', recurring: { interval }, lookup_key: key });
    }
  }

  // ---- what the customer and Stripe do on their own -------------------------------------

  /** The customer pays on the checkout page: the subscription starts and its events go out. */
  payCheckout(sessionId: string): Obj {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no checkout session ${sessionId}`);
    if (session.status === 'complete') return session;
    const price = this.prices.get(session.line_items[0].price)!;
    const now = this.now();
    const subscription: Obj = {
      id: this.id('sub'),
      object: 'subscription',
      customer: session.customer,
      status: 'active',
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      created: now,
      start_date: now,
      currency: 'usd',
      livemode: false,
      metadata: { ...(session.subscription_data?.metadata ?? {}) },
      items: { object: 'list', data: [] as Obj[], has_more: false, url: '/v1/subscription_items' },
      latest_invoice: null,
    };
    const item = {
      id: this.id('si'),
      object: 'subscription_item',
      price,
      quantity: 1,
      subscription: subscription.id,
      created: now,
      metadata: {},
      current_period_start: now,
      current_period_end: now + this.periodOf(price),
    };
    subscription.items.data.push(item);
    this.subscriptions.set(subscription.id, subscription);
    const invoice = this.invoice(subscription, 'subscription_create', 'paid');
    Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: subscription.id });
    this.emit('customer.subscription.created', subscription);
    this.emit('invoice.paid', invoice);
    this.emit('checkout.session.completed', session);
    return subscription;
  }

  /** The paid period ends: a subscription set to cancel ends, any other renews and bills the next period. */
  renew(subscriptionId: string): void {
    const subscription = this.subscription(subscriptionId);
    if (subscription.cancel_at_period_end) {
      this.endSubscription(subscription);
      return;
    }
    this.advancePeriod(subscription);
    subscription.status = 'active';
    const invoice = this.invoice(subscription, 'subscription_cycle', 'paid');
    this.emit('customer.subscription.updated', subscription);
    this.emit('invoice.paid', invoice);
  }

  /** The renewal's payment fails: the subscription goes past due (Stripe retries for a while). */
  failRenewal(subscriptionId: string): void {
    const subscription = this.subscription(subscriptionId);
    this.advancePeriod(subscription);
    subscription.status = 'past_due';
    const invoice = this.invoice(subscription, 'subscription_cycle', 'open');
    this.emit('invoice.payment_failed', invoice);
    this.emit('customer.subscription.updated', subscription);
  }

  /** Stripe gives up on an unpaid subscription and cancels it. */
  cancelForNonPayment(subscriptionId: string): void {
    this.endSubscription(this.subscription(subscriptionId));
  }

  // ---- webhook delivery --------------------------------------------------------------------

  /** Posts an event to the webhook, signed (or with `signature` given, e.g. a forged one). Answers the app's reply. */
  async deliver(event: Stripe.Event, options: { signature?: string; payload?: string } = {}): Promise<Delivery> {
    if (!this.webhookUrl) throw new Error('webhookUrl is not set');
    const payload = options.payload ?? JSON.stringify(event);
    const signature = options.signature ?? this.sign(JSON.stringify(event));
    const res = await fetch(this.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
    const delivery = { eventId: event.id, type: event.type, status: res.status, body: await res.text() };
    this.deliveries.push(delivery);
    return delivery;
  }

  /** A valid Stripe-Signature header for a payload. */
  sign(payload: string, secret = this.webhookSecret): string {
    return this.signer.webhooks.generateTestHeaderString({ payload, secret });
  }

  /** Waits until every automatically delivered event has been answered. */
  async settle(): Promise<void> {
    let current: Promise<void>;
    do {
      current = this.queue;
      await current;
    } while (current !== this.queue);
  }

  /** Events of a type, oldest first. */
  eventsOf(type: string): Stripe.Event[] {
    return this.events.filter((e) => e.type === type);
  }

  async close(): Promise<void> {
    await this.settle();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // ---- internals ---------------------------------------------------------------------------

  private now(): number {
    return Math.floor(Date.now() / 1000);
  }

  private id(prefix: string): string {
    this.counter += 1;
    return `${prefix}_${this.counter.toString(36).padStart(6, '0')}${Math.random().toString(36).slice(2, 10)}`;
  }

  private periodOf(price: Obj): number {
    return PERIOD_SECONDS[price.recurring.interval as 'month' | 'year'];
  }

  private subscription(id: string): Obj {
    const subscription = this.subscriptions.get(id);
    if (!subscription) throw new Error(`no subscription ${id}`);
    return subscription;
  }

  private advancePeriod(subscription: Obj): void {
    const item = subscription.items.data[0];
    item.current_period_start = item.current_period_end;
    item.current_period_end = item.current_period_start + this.periodOf(item.price);
  }

  private endSubscription(subscription: Obj): void {
    Object.assign(subscription, { status: 'canceled', ended_at: this.now(), canceled_at: subscription.canceled_at ?? this.now() });
    this.emit('customer.subscription.deleted', subscription);
  }

  private invoice(subscription: Obj, reason: string, status: 'paid' | 'open'): Obj {
    const item = subscription.items.data[0];
    const invoice = {
      id: this.id('in'),
      object: 'invoice',
      customer: subscription.customer,
      status,
      billing_reason: reason,
      currency: 'usd',
      amount_due: item.price.unit_amount,
      amount_paid: status === 'paid' ? item.price.unit_amount : 0,
      created: this.now(),
      period_start: item.current_period_start,
      period_end: item.current_period_end,
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: subscription.id, metadata: { ...subscription.metadata } } },
      lines: { object: 'list', has_more: false, url: '/v1/invoices/lines', data: [{ object: 'line_item', period: { start: item.current_period_start, end: item.current_period_end } }] },
    };
    this.invoices.set(invoice.id, invoice);
    subscription.latest_invoice = invoice.id;
    return invoice;
  }

  /** Records an event (a snapshot of the object now) and, with autoDeliver, posts it after the current call returns. */
  private emit(type: string, object: Obj): Stripe.Event {
    const event = {
      id: this.id('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: this.now(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object: structuredClone(object) },
    } as unknown as Stripe.Event;
    this.events.push(event);
    if (this.autoDeliver && this.webhookUrl) {
      this.queue = this.queue.then(async () => {
        await new Promise((resolve) => setImmediate(resolve));
        await this.deliver(event).catch(() => undefined);
      });
    }
    return event;
  }

  private createPrice(params: Obj): Obj {
    if (params.lookup_key) {
      const holder = [...this.prices.values()].find((p) => p.lookup_key === params.lookup_key);
      if (holder && !params.transfer_lookup_key) {
        throw new StandInError(400, `A price (${holder.id}) already uses that lookup key.`);
      }
      if (holder) holder.lookup_key = null;
    }
    const price = {
      id: this.id('price'),
      object: 'price',
      active: true,
      currency: params.currency ?? 'usd',
      product: params.product,
      unit_amount: Number(params.unit_amount),
      recurring: { interval: params.recurring?.interval, interval_count: 1 },
      lookup_key: params.lookup_key ?? null,
      nickname: params.nickname ?? null,
      metadata: params.metadata ?? {},
      type: 'recurring',
    };
    this.prices.set(price.id, price);
    return price;
  }

  private routes(app: express.Express): void {
    app.set('query parser', 'extended');
    app.use(express.urlencoded({ extended: true }));

    // The checkout page the customer's browser is sent to.
    app.get('/checkout/:id', (req, res) => {
      const session = this.sessions.get(req.params.id);
      if (!session) return void res.status(404).send('No such checkout session');
      const price = this.prices.get(session.line_items[0].price)!;
      res.type('html').send(`<!doctype html><html><head><title>Stripe stand-in checkout</title></head><body>
        <h1>Pay Cronbeam</h1><p id="amount">${price.lookup_key}: ${(price.unit_amount / 100).toFixed(2)} USD</p>
        <form method="post" action="/checkout/${session.id}/pay"><button type="submit">Pay</button></form>
        <a href="${session.cancel_url}">Back</a></body></html>`);
    });
    app.post('/checkout/:id/pay', (req, res) => {
      const session = this.sessions.get(req.params.id);
      if (!session) return void res.status(404).send('No such checkout session');
      this.payCheckout(session.id);
      res.redirect(303, session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id));
    });

    // The API.
    app.use('/v1', (req, res, next) => {
      this.calls.push(`${req.method} ${req.path}`);
      if (req.headers.authorization !== `Bearer ${this.secretKey}`) {
        return void res.status(401).json({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      }
      if (this.outage) return void res.status(500).json({ error: { type: 'api_error', message: 'Stand-in outage' } });
      next();
    });
    const handle = (fn: (req: Request) => Obj) => (req: Request, res: Response) => {
      try {
        res.json(fn(req));
      } catch (error) {
        const e = error instanceof StandInError ? error : new StandInError(500, String(error));
        res.status(e.status).json({ error: { type: e.status >= 500 ? 'api_error' : 'invalid_request_error', message: e.message, code: e.code } });
      }
    };
    const list = (data: Obj[], url: string) => ({ object: 'list', data, has_more: false, url });
    const find = (map: Map<string, Obj>, kind: string, id: string) => {
      const found = map.get(id);
      if (!found) throw new StandInError(404, `No such ${kind}: '${id}'`, 'resource_missing');
      return found;
    };

    app.post(
      '/v1/customers',
      handle((req) => {
        const customer = { id: this.id('cus'), object: 'customer', email: req.body.email ?? null, name: req.body.name ?? null, metadata: req.body.metadata ?? {}, created: this.now() };
        this.customers.set(customer.id, customer);
        return customer;
      }),
    );
    app.get('/v1/customers/:id', handle((req) => find(this.customers, 'customer', String(req.params.id))));

    app.get('/v1/products/:id', handle((req) => find(this.products, 'product', String(req.params.id))));
    app.post(
      '/v1/products',
      handle((req) => {
        const id = req.body.id ?? this.id('prod');
        if (this.products.has(id)) throw new StandInError(400, `Product already exists: ${id}`, 'resource_already_exists');
        const product = { id, object: 'product', name: req.body.name, description: req.body.description ?? null, active: true, metadata: req.body.metadata ?? {} };
        this.products.set(id, product);
        return product;
      }),
    );
    app.post(
      '/v1/products/:id',
      handle((req) => Object.assign(find(this.products, 'product', String(req.params.id)), { name: req.body.name ?? undefined, description: req.body.description ?? undefined })),
    );

    app.get(
      '/v1/prices',
      handle((req) => {
        const keys = ([] as string[]).concat((req.query.lookup_keys as string[] | string | undefined) ?? []);
        const active = req.query.active === undefined ? undefined : req.query.active === 'true';
        const data = [...this.prices.values()].filter(
          (p) => (keys.length === 0 || keys.includes(p.lookup_key)) && (active === undefined || p.active === active) && (!req.query.product || p.product === req.query.product),
        );
        return list(data, '/v1/prices');
      }),
    );
    app.post(
      '/v1/prices',
      handle((req) => {
        find(this.products, 'product', req.body.product);
        return this.createPrice({ ...req.body, transfer_lookup_key: req.body.transfer_lookup_key === 'true' });
      }),
    );
    app.post(
      '/v1/prices/:id',
      handle((req) => {
        const price = find(this.prices, 'price', String(req.params.id));
        if (req.body.active !== undefined) price.active = req.body.active === 'true';
        return price;
      }),
    );

    app.post(
      '/v1/checkout/sessions',
      handle((req) => {
        const body = req.body;
        if (body.mode !== 'subscription') throw new StandInError(400, 'Only subscription mode is supported by the stand-in');
        find(this.customers, 'customer', body.customer);
        const lineItems = (body.line_items ?? []) as Obj[];
        if (lineItems.length !== 1) throw new StandInError(400, 'Exactly one line item is supported');
        find(this.prices, 'price', lineItems[0].price);
        const id = this.id('cs_test');
        const session = {
          id,
          object: 'checkout.session',
          mode: 'subscription',
          status: 'open',
          payment_status: 'unpaid',
          customer: body.customer,
          client_reference_id: body.client_reference_id ?? null,
          line_items: lineItems.map((li) => ({ price: li.price, quantity: Number(li.quantity ?? 1) })),
          subscription_data: body.subscription_data ?? {},
          subscription: null,
          success_url: body.success_url,
          cancel_url: body.cancel_url,
          url: `${this.url}/checkout/${id}`,
          metadata: body.metadata ?? {},
          created: this.now(),
        };
        this.sessions.set(id, session);
        return session;
      }),
    );
    app.get('/v1/checkout/sessions/:id', handle((req) => find(this.sessions, 'checkout.session', String(req.params.id))));

    app.get('/v1/subscriptions/:id', handle((req) => find(this.subscriptions, 'subscription', String(req.params.id))));
    app.post(
      '/v1/subscriptions/:id',
      handle((req) => {
        const subscription = find(this.subscriptions, 'subscription', String(req.params.id));
        if (subscription.status === 'canceled') throw new StandInError(400, 'A canceled subscription can only update its cancellation_details and metadata.');
        const body = req.body;
        let invoice: Obj | null = null;
        if (body.metadata) {
          for (const [key, value] of Object.entries(body.metadata as Record<string, string>)) {
            if (value === '') delete subscription.metadata[key];
            else subscription.metadata[key] = value;
          }
        }
        if (body.items) {
          const change = (body.items as Obj[])[0];
          const item = subscription.items.data.find((i: Obj) => i.id === change.id);
          if (!item) throw new StandInError(400, `No such subscription item: '${change.id}'`, 'resource_missing');
          const price = find(this.prices, 'price', change.price);
          const intervalChanged = price.recurring.interval !== item.price.recurring.interval;
          item.price = price;
          // Stripe restarts the billing cycle when the interval changes, and bills at once.
          if (intervalChanged) {
            item.current_period_start = this.now();
            item.current_period_end = item.current_period_start + this.periodOf(price);
          }
          if (body.proration_behavior === 'always_invoice' || intervalChanged) {
            invoice = this.invoice(subscription, 'subscription_update', 'paid');
          }
        }
        if (body.cancel_at_period_end !== undefined) {
          subscription.cancel_at_period_end = body.cancel_at_period_end === 'true';
          subscription.cancel_at = subscription.cancel_at_period_end ? subscription.items.data[0].current_period_end : null;
          subscription.canceled_at = subscription.cancel_at_period_end ? this.now() : null;
        }
        this.emit('customer.subscription.updated', subscription);
        if (invoice) this.emit('invoice.paid', invoice);
        return subscription;
      }),
    );
    app.delete(
      '/v1/subscriptions/:id',
      handle((req) => {
        const subscription = find(this.subscriptions, 'subscription', String(req.params.id));
        if (subscription.status === 'canceled') throw new StandInError(400, 'This subscription is already canceled.');
        this.endSubscription(subscription);
        return subscription;
      }),
    );

    app.use((req, res) => {
      res.status(404).json({ error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.path}).` } });
    });
  }
}

class StandInError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}
