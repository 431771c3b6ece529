// Last line of defence against leaking a key: every line the CLI writes to stderr passes through
// here. Keys in the documented format are cut to their prefix; any other secret the process knows
// (a bearer token, a key of unknown shape) is registered and replaced wholesale.

const KEY_PATTERN = /\b(apk_[A-Za-z0-9]{8})_[A-Za-z0-9]{8,}\b/g;

export class SecretRedactor {
  private readonly secrets = new Set<string>();

  register(secret: string | undefined): void {
    // Very short strings would redact ordinary words; real credentials are long.
    if (secret && secret.length >= 8) this.secrets.add(secret);
  }

  redact(text: string): string {
    let out = text.replace(KEY_PATTERN, '$1_…');
    for (const secret of this.secrets) {
      if (out.includes(secret)) out = out.split(secret).join(keyPrefix(secret) + '…');
    }
    return out;
  }
}

/** The part of a key that may be shown or recorded: `apk_xxxxxxxx` for documented keys. */
export function keyPrefix(secret: string): string {
  const match = /^(apk_[A-Za-z0-9]{8})_/.exec(secret);
  if (match?.[1]) return match[1];
  // Unknown format (e.g. a bearer token): show so little that it identifies nothing.
  return secret.slice(0, 4);
}
