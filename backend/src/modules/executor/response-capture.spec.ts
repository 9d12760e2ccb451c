import { BodyCapture, RESPONSE_CAPTURE_BYTES } from './response-capture';

describe('BodyCapture', () => {
  it('keeps JSON and text as they came', () => {
    const capture = new BodyCapture();
    expect(capture.add(Buffer.from('{"ok":'))).toBe(true);
    expect(capture.add(Buffer.from('true}'))).toBe(true);
    expect(capture.text('application/json; charset=utf-8')).toBe('{"ok":true}');
  });

  it('answers null for an empty body', () => {
    expect(new BodyCapture().text('text/plain')).toBeNull();
  });

  it('summarises a binary body instead of storing it', () => {
    const capture = new BodyCapture();
    capture.add(Buffer.from([0xff, 0xd8, 0xff]));
    expect(capture.text('image/jpeg')).toBe('[image/jpeg body not stored]');
  });

  it('stops at 64 KiB, says so once more has arrived, and drops a character cut in half', () => {
    const capture = new BodyCapture();
    const almost = Buffer.alloc(RESPONSE_CAPTURE_BYTES - 1, 'a');
    expect(capture.add(almost)).toBe(true);
    expect(capture.add(Buffer.from('é and more'))).toBe(false); // 'é' is two bytes: only its first fits
    const text = capture.text('text/plain')!;
    expect(text).toBe('a'.repeat(RESPONSE_CAPTURE_BYTES - 1));
  });
});
