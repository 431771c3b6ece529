// The environment variables a command sees. Its own module so that config, credentials and HTTP can
// name it without importing the context (which names them: that was a cycle).
export type Env = Readonly<Record<string, string | undefined>>;
