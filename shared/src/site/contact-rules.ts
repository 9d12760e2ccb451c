/** Limits and texts of the contact form, checked in the browser and again by the server (same function). */
export const CONTACT_LIMITS = { nameMaxLength: 100, emailMaxLength: 254, subjectMaxLength: 150, messageMaxLength: 5000 } as const;

export const CONTACT_MESSAGES = {
  nameRequired: 'Name is required',
  nameTooLong: `Name must be at most ${CONTACT_LIMITS.nameMaxLength} characters`,
  emailInvalid: 'Please enter a valid email address',
  subjectTooLong: `Subject must be at most ${CONTACT_LIMITS.subjectMaxLength} characters`,
  subjectText: 'Subject must be text',
  messageRequired: 'Message is required',
  messageTooLong: `Message must be at most ${CONTACT_LIMITS.messageMaxLength} characters`,
  notAnObject: 'Request body must be a JSON object',
  unknownField: 'Unknown field',
  rateLimited: 'Too many messages from this address. Please try again later.',
  sent: 'Thank you! Your message has been sent. We answer within 24-48 hours.',
} as const;

export const CONTACT_FIELDS = ['name', 'email', 'subject', 'message'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];
export type ContactMessage = Record<ContactField, string>;

export type ContactCheck = { ok: true; value: ContactMessage } | { ok: false; errors: Partial<Record<string, string>> };

// One @, no spaces, dot-separated non-empty labels in the domain: the mail server is the real judge, this catches typos.
const EMAIL = /^[^\s@]+@[^\s.@]+(?:\.[^\s.@]+)+$/;

/** Trims and checks a contact message; names every bad field with its message. */
export function checkContactMessage(input: unknown): ContactCheck {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return { ok: false, errors: { body: CONTACT_MESSAGES.notAnObject } };
  const raw = input as Record<string, unknown>;
  const errors: Partial<Record<string, string>> = {};
  for (const key of Object.keys(raw)) if (!(CONTACT_FIELDS as readonly string[]).includes(key)) errors[key] = CONTACT_MESSAGES.unknownField;
  const text = (key: ContactField) => (typeof raw[key] === 'string' ? (raw[key] as string).trim() : '');
  const value: ContactMessage = { name: text('name'), email: text('email'), subject: text('subject'), message: text('message') };
  if (!value.name) errors.name = CONTACT_MESSAGES.nameRequired;
  else if (value.name.length > CONTACT_LIMITS.nameMaxLength) errors.name = CONTACT_MESSAGES.nameTooLong;
  if (value.email.length > CONTACT_LIMITS.emailMaxLength || !EMAIL.test(value.email)) errors.email = CONTACT_MESSAGES.emailInvalid;
  if (raw.subject !== undefined && typeof raw.subject !== 'string') errors.subject = CONTACT_MESSAGES.subjectText;
  else if (value.subject.length > CONTACT_LIMITS.subjectMaxLength) errors.subject = CONTACT_MESSAGES.subjectTooLong;
  if (!value.message) errors.message = CONTACT_MESSAGES.messageRequired;
  else if (value.message.length > CONTACT_LIMITS.messageMaxLength) errors.message = CONTACT_MESSAGES.messageTooLong;
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value };
}
