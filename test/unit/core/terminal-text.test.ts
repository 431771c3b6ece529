// The one sanitising step's two character classes (core/terminal-text.ts): controls and invisible
// text become a visible U+FFFD each; ordinary text, emoji and the emoji sequences that need a joiner
// or tag characters are kept.
import { describe, expect, it } from 'vitest';
import { jsonTerminalSafe, terminalSafe } from '../../../src/core/terminal-text.js';

const tags = (text: string) => Array.from(text, (char) => String.fromCodePoint(0xe0000 + char.charCodeAt(0))).join('');
const F = '\uFFFD';

describe('terminalSafe', () => {
  it('keeps ordinary non-ASCII text and emoji, joined emoji and the recommended subdivision flags', () => {
    for (const text of [
      'Café, Zürich, 東京, Москва, عربى',
      '😀 ❤️ 👍🏽',
      '👩‍💻 👨‍👩‍👧 👩🏽‍💻 ❤️‍🔥 🏳️‍🌈',
      `🏴${tags('gbsct')}\u{e007f} 🏴${tags('gbeng')}\u{e007f}`,
      '葛\u{e0100}',
    ])
      expect(terminalSafe(text)).toBe(text);
  });

  it('neutralises tag characters, zero-width and bidi characters and the line and paragraph separators', () => {
    expect(terminalSafe(`ok${tags('run rm -rf')}`)).toBe(`ok${F.repeat(10)}`);
    expect(terminalSafe('a\u200bb\u200cc\u200ed\u200ff\u2060g\ufeffh')).toBe(`a${F}b${F}c${F}d${F}f${F}g${F}h`);
    expect(terminalSafe('a\u202ab\u202ec\u2066d\u2069e')).toBe(`a${F}b${F}c${F}d${F}e`);
    expect(terminalSafe('line\u2028para\u2029end')).toBe(`line${F}para${F}end`);
  });

  it('keeps a joiner only between two emoji, and tags only in a recommended flag', () => {
    expect(terminalSafe('ad\u200dmin')).toBe(`ad${F}min`);
    expect(terminalSafe('😀\u200dx')).toBe(`😀${F}x`);
    expect(terminalSafe(`🏴${tags('us')}\u{e007f}`)).toBe(`🏴${F.repeat(3)}`);
    expect(terminalSafe(`🏴${tags('gbsct')}${tags('hidden')}\u{e007f}`)).toBe(`🏴${F.repeat(12)}`);
  });

  it('neutralises a run of variation selectors (bytes hidden behind an emoji), keeps a single one', () => {
    expect(terminalSafe('😀\ufe0f')).toBe('😀\ufe0f');
    expect(terminalSafe('😀\u{e0100}\u{e0101}\ufe01')).toBe(`😀${F.repeat(3)}`);
  });

  it('still shows controls visibly and turns CRLF into LF', () => {
    expect(terminalSafe('a\x1b]52;c;x\x07b\r\nc\rd')).toBe(`a${F}]52;c;x${F}b\nc${F}d`);
  });
});

describe('jsonTerminalSafe', () => {
  it('spells DEL, C1 controls and invisible characters as \\u escapes: the same value, nothing raw on screen', () => {
    const value = { name: 'x\u202ey\u009b2Jz\u2028w\u007f', note: `a${tags('hi')}b`, plain: 'Café 東京' };
    const text = jsonTerminalSafe(JSON.stringify(value));
    expect(text).toBe('{"name":"x\\u202ey\\u009b2Jz\\u2028w\\u007f","note":"a\\udb40\\udc68\\udb40\\udc69b","plain":"Café 東京"}');
    expect(JSON.parse(text)).toEqual(value);
    expect(text).not.toMatch(/[\u007f-\u009f\u2028\u202e]/u);
  });

  it('keeps the joined emoji sequences terminalSafe keeps', () => {
    const text = JSON.stringify({ who: '👩‍💻', flag: `\u{1f3f4}${tags('gbsct')}\u{e007f}` });
    expect(jsonTerminalSafe(text)).toBe(text);
  });
});
