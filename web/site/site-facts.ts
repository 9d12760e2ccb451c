/** Promises the legal and contact pages make; the pages and their tests read them from here. */
export const SITE_FACTS = {
  minimumAge: 13,
  refundWindowHours: 48,
  refundAnswerBusinessDays: '3-5',
  contactResponseHours: '24-48',
} as const;
