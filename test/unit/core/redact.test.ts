// Redaction that survives encoding (issue 14 item 7) and the terminal-safe step (item 2).
import { describe, expect, it } from 'vitest';
import { childEnvironment, lineForwarder } from '../../../src/core/child-env.js';
import { keyPrefix, SecretRedactor } from '../../../src/core/redact.js';
import { stderrText, terminalSafe } from '../../../src/core/terminal-text.js';
import { ENCODINGS, RAW_CONTROL, ALL_CONTROL } from '../../hostile/answers.js';

const KEY = 'apk_Secret01_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const TOKEN = 'tok-3f9a8b7c6d5e4f3a2b1c';

describe('SecretRedactor', () => {
  const redactor = new SecretRedactor();
  redactor.register(KEY);
  redactor.register(TOKEN);

  for (const [name, encode] of Object.entries(ENCODINGS)) {
    it(`redacts a registered key echoed ${name}`, () => {
      const out = redactor.redact(`error: key ${encode(KEY)} is wrong`);
      expect(out).not.toContain('AbCdEfGhIjKlMnOp');
      expect(out).not.toContain(encode(KEY));
      expect(out).toContain('apk_Secret01…');
    });
    it(`redacts a registered token echoed ${name}`, () => {
      const out = redactor.redact(`token ${encode(TOKEN)}!`);
      expect(out).not.toContain(encode(TOKEN));
      expect(out).toContain('tok-…');
    });
  }

  it('cuts unknown documented keys, also URL-encoded, to their prefix', () => {
    const other = new SecretRedactor();
    expect(other.redact('k=apk_ZZZZZZZZ_0123456789abcdef')).toBe('k=apk_ZZZZZZZZ_…');
    expect(other.redact('k=apk%5FZZZZZZZZ%5F0123456789abcdef')).toBe('k=apk%5FZZZZZZZZ_…');
  });

  it('replaces any Authorization value and bearer credential, whoever it belongs to', () => {
    const other = new SecretRedactor();
    expect(other.redact('authorization: Bearer eyJhbGci.payload.sig')).toBe('authorization: Bearer …');
    expect(other.redact('Proxy-Authorization: Basic dXNlcjpwYXNz')).toBe('Proxy-Authorization: Basic …');
    expect(other.redact('sent "Authorization":"Token s3cr3t-value"')).toBe('sent "Authorization":"Token …"');
    expect(other.redact('the service said: use Bearer abc123def456ghi')).toBe('the service said: use Bearer …');
    // Prose and our own already-cut traces stay as they are.
    expect(other.redact('a Bearer token is needed')).toBe('a Bearer token is needed');
    expect(other.redact('> x-api-key: apk_AAAAAAAA…')).toBe('> x-api-key: apk_AAAAAAAA…');
  });

  it('keeps a shell variable reference as a header value (a reproducing curl), still redacting real values', () => {
    const other = new SecretRedactor();
    expect(other.redact('curl -H "x-api-key: $APPRAISAL_API_KEY" -H "Authorization: Bearer ${APPRAISAL_TOKEN}"')).toBe(
      'curl -H "x-api-key: $APPRAISAL_API_KEY" -H "Authorization: Bearer ${APPRAISAL_TOKEN}"',
    );
    expect(other.redact('x-api-key: $APPRAISAL_API_KEY_and_more_text')).not.toContain('and_more_text');
  });

  it('never shows a short secret whole, and matches it only as a word', () => {
    const other = new SecretRedactor();
    other.register('abc');
    expect(keyPrefix('abc')).toBe('');
    expect(keyPrefix('abcdefghij')).toBe('ab');
    expect(other.redact('token abc was refused; fabcd is a word')).toBe('token … was refused; fabcd is a word');
  });
});

describe('terminalSafe / stderrText', () => {
  it('shows every control sequence visibly and keeps line breaks', () => {
    const out = terminalSafe(`a${ALL_CONTROL}\r\nb\n`);
    expect(out).not.toMatch(RAW_CONTROL);
    expect(out).toContain('\uFFFD]52;c;');
    expect(out.endsWith('\nb\n')).toBe(true);
  });
  it('redacts before sanitising', () => {
    const redactor = new SecretRedactor();
    redactor.register(KEY);
    expect(stderrText(`\x1b[2J${ENCODINGS.zeroWidth!(KEY)}`, redactor)).toBe('\uFFFD[2Japk_Secret01…');
  });
});

describe('childEnvironment', () => {
  it('drops credential variables and anything holding a secret, keeps the rest', () => {
    const redactor = new SecretRedactor();
    redactor.register(TOKEN);
    const env = childEnvironment(
      {
        PATH: '/bin',
        APPRAISAL_API_KEY: KEY,
        appraisal_token: TOKEN,
        COPY: `x${TOKEN}`,
        OTHER_KEY: 'apk_ZZZZZZZZ_0123456789abcdef',
        HOME: '/h',
      },
      redactor,
      { APPRAISAL_EVENT_ID: 'p1', APPRAISAL_TOKEN: 'sneaky' },
    );
    expect(env).toEqual({ PATH: '/bin', HOME: '/h', APPRAISAL_EVENT_ID: 'p1' });
  });
  it('forwards output by whole lines, so a secret split across chunks is redacted', () => {
    const redactor = new SecretRedactor();
    redactor.register(KEY);
    const lines: string[] = [];
    const forward = lineForwarder((line) => lines.push(stderrText(line, redactor)));
    forward.write(`x ${KEY.slice(0, 20)}`);
    forward.write(`${KEY.slice(20)} y\nlast`);
    forward.flush();
    expect(lines).toEqual(['x apk_Secret01… y', 'last']);
  });
});
