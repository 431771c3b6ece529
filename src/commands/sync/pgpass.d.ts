// pgpass (pg's own dependency, which reads libpq's password file) publishes no types: the three
// helpers postgres.ts uses.
declare module 'pgpass/lib/helper.js' {
  export function getFileName(env: Readonly<Record<string, string | undefined>>): string;
  export function usePgPass(stats: unknown, file: string): boolean;
  export function getPassword(
    connection: Record<string, string>,
    stream: NodeJS.ReadableStream,
    done: (password: string | undefined) => void,
  ): void;
}
