// What marks a key as a lease: its name, `lease: CMD …, host H, pid P`. `keys lease` (and `mcp
// --lease`) write it; `keys list` marks such keys, `keys audit` finds those whose process is gone, and
// the expiry warning leaves them alone (a lease is made to expire). The name is all the service
// keeps, so it carries what an audit needs (which machine, which process).

const PREFIX = 'lease: ';
const NAME = /^lease: (.*), host (\S+), pid (\d+)$/s;
/** The service takes names up to 200 characters (keys create says so too). */
const MAX_NAME = 200;

export interface LeaseHolder {
  command: string;
  host: string;
  pid: number;
}

/** `lease: npm test, host ci-7, pid 4242`, the command cut (with …) so that the whole fits. */
export function leaseName(holder: LeaseHolder): string {
  const tail = `, host ${holder.host}, pid ${holder.pid}`;
  const room = MAX_NAME - PREFIX.length - tail.length;
  const command = holder.command.length > room ? `${holder.command.slice(0, Math.max(0, room - 1))}…` : holder.command;
  return `${PREFIX}${command}${tail}`;
}

export function isLeaseName(name: unknown): boolean {
  return typeof name === 'string' && name.startsWith(PREFIX);
}

/** Who holds a lease, read back from its name; undefined for a name `keys lease` did not write. */
export function leaseHolder(name: unknown): LeaseHolder | undefined {
  if (typeof name !== 'string') return undefined;
  const match = NAME.exec(name);
  if (!match) return undefined;
  return { command: match[1]!, host: match[2]!, pid: Number(match[3]) };
}
