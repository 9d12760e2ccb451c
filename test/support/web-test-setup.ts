// Component tests (jest project 'web'): the jest-dom matchers, and the text
// codecs that jsdom leaves out but the app's token and job rules use.
import '@testing-library/jest-dom';
import { TextDecoder, TextEncoder } from 'node:util';

Object.assign(globalThis, { TextEncoder: globalThis.TextEncoder ?? TextEncoder, TextDecoder: globalThis.TextDecoder ?? TextDecoder });
