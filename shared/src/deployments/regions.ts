/**
 * The Fly.io regions the deployment form offers, with the factor their
 * price differs from the main US regions by (the cost estimate multiplies
 * by it). Codes are Fly's region codes.
 */
export interface DeploymentRegion {
  code: string;
  name: string;
  priceFactor: number;
}

export const DEFAULT_REGION = 'lax';

export const DEPLOYMENT_REGIONS: readonly DeploymentRegion[] = [
  // Main US regions and Canada.
  { code: 'atl', name: 'Atlanta, Georgia (US)', priceFactor: 1 },
  { code: 'bos', name: 'Boston, Massachusetts (US)', priceFactor: 1 },
  { code: 'den', name: 'Denver, Colorado (US)', priceFactor: 1 },
  { code: 'dfw', name: 'Dallas, Texas (US)', priceFactor: 1 },
  { code: 'ewr', name: 'Secaucus, NJ (US)', priceFactor: 1 },
  { code: 'iad', name: 'Ashburn, Virginia (US)', priceFactor: 1 },
  { code: 'lax', name: 'Los Angeles, California (US)', priceFactor: 1 },
  { code: 'mia', name: 'Miami, Florida (US)', priceFactor: 1 },
  { code: 'ord', name: 'Chicago, Illinois (US)', priceFactor: 1 },
  { code: 'sea', name: 'Seattle, Washington (US)', priceFactor: 1 },
  { code: 'sjc', name: 'San Jose, California (US)', priceFactor: 1 },
  { code: 'yul', name: 'Montreal, Canada', priceFactor: 1 },
  { code: 'yyz', name: 'Toronto, Canada', priceFactor: 1 },
  // Europe.
  { code: 'ams', name: 'Amsterdam, Netherlands', priceFactor: 1.02 },
  { code: 'cdg', name: 'Paris, France', priceFactor: 1.02 },
  { code: 'fra', name: 'Frankfurt, Germany', priceFactor: 1.02 },
  { code: 'lhr', name: 'London, United Kingdom', priceFactor: 1.02 },
  { code: 'mad', name: 'Madrid, Spain', priceFactor: 1.02 },
  { code: 'otp', name: 'Bucharest, Romania', priceFactor: 1.02 },
  { code: 'waw', name: 'Warsaw, Poland', priceFactor: 1.02 },
  { code: 'arn', name: 'Stockholm, Sweden', priceFactor: 1.03 },
  // Asia Pacific.
  { code: 'nrt', name: 'Tokyo, Japan', priceFactor: 1.04 },
  { code: 'hkg', name: 'Hong Kong', priceFactor: 1.04 },
  { code: 'sin', name: 'Singapore', priceFactor: 1.04 },
  { code: 'syd', name: 'Sydney, Australia', priceFactor: 1.04 },
  { code: 'bom', name: 'Mumbai, India', priceFactor: 1.05 },
  // Africa and Latin America.
  { code: 'jnb', name: 'Johannesburg, South Africa', priceFactor: 1.1 },
  { code: 'qro', name: 'Querétaro, Mexico', priceFactor: 1.1 },
  { code: 'gdl', name: 'Guadalajara, Mexico', priceFactor: 1.1 },
  { code: 'scl', name: 'Santiago, Chile', priceFactor: 1.15 },
  { code: 'bog', name: 'Bogotá, Colombia', priceFactor: 1.15 },
  { code: 'gru', name: 'São Paulo, Brazil', priceFactor: 1.25 },
  { code: 'gig', name: 'Rio de Janeiro, Brazil', priceFactor: 1.25 },
];

/** Regions noticeably dearer than the rest: the form warns about the cost there. */
export const COSTLY_REGIONS: readonly string[] = ['gru', 'gig', 'scl', 'bog', 'jnb'];

const BY_CODE = new Map(DEPLOYMENT_REGIONS.map((r) => [r.code, r]));

export function findRegion(code: string): DeploymentRegion | undefined {
  return BY_CODE.get(code);
}

export function isCostlyRegion(code: string): boolean {
  return COSTLY_REGIONS.includes(code);
}
