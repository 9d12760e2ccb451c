import { findRegion } from './regions';

/** A 5 GB volume for n8n's data, the same price everywhere before the region factor. */
export const VOLUME_MONTHLY_PRICE = 1.5;
export const VOLUME_SIZE_GB = 5;

/** Monthly compute price (USD) of a machine with this much memory. */
export function computeMonthlyPrice(ramMb: number): number {
  if (ramMb <= 256) return 1.94;
  if (ramMb <= 512) return 3.19;
  if (ramMb <= 1024) return 5.7;
  if (ramMb <= 2048) return 10.7;
  // Above 2 GB every further GB (pro rata for the slider's 256 MB steps) adds 5.
  if (ramMb <= 4096) return 11.39 + (5 * (ramMb - 2048)) / 1024;
  return 21.4 + (5 * (ramMb - 4096)) / 1024;
}

export interface CostEstimate {
  compute: number;
  volume: number;
  priceFactor: number;
  /** (compute + volume) × region factor, rounded to cents. */
  total: number;
}

/** The estimated monthly cost the form shows and the API records; unknown regions count as factor 1. */
export function estimateMonthlyCost(ramMb: number, region: string): CostEstimate {
  const compute = computeMonthlyPrice(ramMb);
  const priceFactor = findRegion(region)?.priceFactor ?? 1;
  // Rounding the float product directly turns e.g. 12.2 × 1.02 = 12.443999… the wrong way; round via integer cents.
  const total = Math.round(Number(((compute + VOLUME_MONTHLY_PRICE) * priceFactor * 100).toFixed(6))) / 100;
  return { compute: Math.round(compute * 100) / 100, volume: VOLUME_MONTHLY_PRICE, priceFactor, total };
}
