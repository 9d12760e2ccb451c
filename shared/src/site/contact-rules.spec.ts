import { describe, expect, it } from '@jest/globals';
import { CONTACT_LIMITS, CONTACT_MESSAGES, checkContactMessage } from './contact-rules';

describe('contact form rules', () => {
  it('trims a valid message and defaults the subject', () => {
    expect(checkContactMessage({ name: ' Ada ', email: ' ada@example.com ', message: ' Hi ' })).toEqual({
      ok: true,
      value: { name: 'Ada', email: 'ada@example.com', subject: '', message: 'Hi' },
    });
  });

  it('names every bad field with its message', () => {
    expect(checkContactMessage({ name: 'x'.repeat(CONTACT_LIMITS.nameMaxLength + 1), email: 'a@b', subject: 7, message: 5, other: 1 })).toEqual({
      ok: false,
      errors: {
        name: CONTACT_MESSAGES.nameTooLong,
        email: CONTACT_MESSAGES.emailInvalid,
        subject: CONTACT_MESSAGES.subjectText,
        message: CONTACT_MESSAGES.messageRequired,
        other: CONTACT_MESSAGES.unknownField,
      },
    });
    for (const body of [null, [], 'text', 3]) expect(checkContactMessage(body)).toEqual({ ok: false, errors: { body: CONTACT_MESSAGES.notAnObject } });
  });
});
