// The commands in the hints of watch's file refusals, as a POSIX shell reads them: a path with a
// space, a quote or a `$` is one single-quoted word; a plain one stays as it is.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { UnsafeFileError } from '../../../../src/core/owned-file.js';
import { UsageError } from '../../../../src/core/errors.js';
import { shellWord, withShellWords } from '../../../../src/commands/watch/shell-hint.js';

describe('shell words in hints', () => {
  it('quotes what a shell would split or expand, and reads back as the text', () => {
    expect(shellWord('/srv/watch/props.state')).toBe('/srv/watch/props.state');
    for (const text of ['/srv/dir with spaces/my secret', "/srv/it's", '/srv/$(id)`x`;rm', '/srv/a\\b', '/srv/"q"', '/srv/*', '']) {
      const word = shellWord(text);
      expect(word.startsWith("'"), text).toBe(true);
      expect(execFileSync('sh', ['-c', `printf %s ${word}`]).toString(), text).toBe(text);
    }
  });

  it("quotes the path in an UnsafeFileError's chmod hint, and leaves other errors and plain paths alone", () => {
    const quoted = withShellWords(new UnsafeFileError('/srv/my dir/s', 'can be read by other users (mode 644)')) as UnsafeFileError;
    expect(quoted).toBeInstanceOf(UnsafeFileError);
    expect(quoted.message).toBe('/srv/my dir/s can be read by other users (mode 644); refusing to use it');
    expect(quoted.hint).toBe("run `chmod 600 '/srv/my dir/s'` if it is yours, else remove it");
    const writable = withShellWords(new UnsafeFileError('/srv/my dir/s', 'can be written by other users (mode 666)')) as UnsafeFileError;
    expect(writable.hint).toBe("run `chmod go-w '/srv/my dir/s'` if it is yours, else remove it");
    const plain = new UnsafeFileError('/srv/s', 'can be read by other users (mode 644)');
    expect(withShellWords(plain)).toBe(plain);
    const other = new UsageError('`chmod 600 /srv/my dir/s`');
    expect(withShellWords(other)).toBe(other);
  });
});
