import { describe, expect, it } from '@jest/globals';
import { computeMonthlyPrice, estimateMonthlyCost } from './cost-estimate';
import { COSTLY_REGIONS, DEFAULT_REGION, DEPLOYMENT_REGIONS, findRegion, isCostlyRegion } from './regions';

describe('compute price table', () => {
  it.each([
    [128, 1.94],
    [256, 1.94],
    [257, 3.19],
    [512, 3.19],
    [768, 5.7],
    [1024, 5.7],
    [1280, 10.7],
    [2048, 10.7],
    // 11.39 plus 5 per extra GB above 2048, up to 4096.
    [2304, 12.64],
    [3072, 16.39],
    [4096, 21.39],
    // 21.40 plus 5 per extra GB above 4096.
    [5120, 26.4],
    [8192, 41.4],
  ])('%i MB costs %d', (ramMb, price) => {
    expect(computeMonthlyPrice(ramMb)).toBeCloseTo(price, 10);
  });
});

describe('region factors', () => {
  it('offers 33 distinct regions, lax among them as the default', () => {
    expect(DEPLOYMENT_REGIONS).toHaveLength(33);
    expect(new Set(DEPLOYMENT_REGIONS.map((r) => r.code)).size).toBe(33);
    expect(findRegion(DEFAULT_REGION)?.priceFactor).toBe(1);
  });

  it.each([
    [1.03, ['arn']],
    [1.04, ['nrt', 'hkg', 'sin', 'syd']],
    [1.05, ['bom']],
    [1.1, ['jnb', 'qro', 'gdl']],
    [1.15, ['scl', 'bog']],
    [1.25, ['gru', 'gig']],
  ])('factor %d applies to %j', (factor, codes) => {
    for (const code of codes) expect(findRegion(code)?.priceFactor).toBe(factor);
  });

  it('main US regions and Canada are 1, most of Europe 1.02', () => {
    for (const code of ['iad', 'ord', 'sjc', 'ewr', 'dfw', 'yyz', 'yul']) expect(findRegion(code)?.priceFactor).toBe(1);
    for (const code of ['ams', 'fra', 'lhr', 'cdg', 'mad', 'waw', 'otp']) expect(findRegion(code)?.priceFactor).toBe(1.02);
  });

  it('warns about exactly gru, gig, scl, bog and jnb', () => {
    expect([...COSTLY_REGIONS].sort()).toEqual(['bog', 'gig', 'gru', 'jnb', 'scl']);
    expect(DEPLOYMENT_REGIONS.filter((r) => isCostlyRegion(r.code)).map((r) => r.code).sort()).toEqual(['bog', 'gig', 'gru', 'jnb', 'scl']);
  });
});

describe('estimateMonthlyCost', () => {
  it.each([
    [2048, 'lax', 12.2],
    [512, 'lax', 4.69],
    [256, 'iad', 3.44],
    [1024, 'ams', 7.34],
    [2048, 'ams', 12.44],
    [2048, 'arn', 12.57],
    [2048, 'nrt', 12.69],
    [2048, 'bom', 12.81],
    [2048, 'jnb', 13.42],
    [2048, 'scl', 14.03],
    [2048, 'gru', 15.25],
    [4096, 'lax', 22.89],
    [8192, 'gig', 53.63],
  ])('%i MB in %s is %d a month', (ramMb, region, total) => {
    expect(estimateMonthlyCost(ramMb, region).total).toBe(total);
  });

  it('adds the 1.50 volume before the factor', () => {
    const estimate = estimateMonthlyCost(1024, 'gru');
    expect(estimate).toEqual({ compute: 5.7, volume: 1.5, priceFactor: 1.25, total: 9 });
  });
});
