// The `require` the command bundle is given (src/boot/bundle-loader.ts): it hands out a stand-in for some
// Node built-in modules and loads the real module on first use.
//
// Why: `props get` loaded ~90 built-in modules beyond `node -e 0`, and compiling them was the
// largest cost of a short command after Node's own start-up. These are imported at a module's top
// but used only on rarer paths: commander requires node:child_process for executable subcommands
// (we have none); undici node:http for one constructor check and node:assert for its invariants;
// our own modules node:fs/promises, node:os, node:timers/promises and node:perf_hooks. Deferring
// them saved ~6 ms of CPU per `props get` (CHANGELOG; test/e2e/deferred-builtins.test.ts keeps them
// deferred).
//
// The stand-in forwards every operation (a property read, `in`, listing keys, a call for
// node:assert) to the real module, so a command sees the module's own behaviour. It stays deferred
// for a named import, which esbuild reads at each use (`(0, mod.open)(…)`); a default or namespace
// import copies the keys at once (__toESM) and so loads the module at once: correct, only not lazy.

/** Built-ins handed out as stand-ins; `callable`: the module is itself a function. */
export const DEFERRED_BUILTINS: Readonly<Record<string, { callable?: boolean }>> = {
  'node:assert': { callable: true },
  'node:child_process': {},
  'node:fs/promises': {},
  'node:http': {},
  'node:os': {},
  'node:perf_hooks': {},
  'node:timers/promises': {},
};

/** A stand-in for the module `load()` returns, loading it on first use. */
export function deferredModule(load: () => unknown, { callable = false }: { callable?: boolean } = {}): unknown {
  let real: object | undefined;
  const module = (): object => (real ??= load() as object);
  // An arrow function as the target of a callable stand-in: it has no non-configurable own
  // properties (`prototype`, `arguments`) that would bind what the traps may answer.
  const target = callable ? () => {} : {};
  return new Proxy(target, {
    // Built-ins are never ES module namespaces: no need to load one to say so (esbuild asks).
    get: (_, key) => (key === '__esModule' ? undefined : Reflect.get(module(), key)),
    set: (_, key, value) => Reflect.set(module(), key, value),
    has: (_, key) => Reflect.has(module(), key),
    ownKeys: () => Reflect.ownKeys(module()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(module(), key);
      // A proxy may not report a property as non-configurable unless its target has it so.
      return descriptor && { ...descriptor, configurable: true };
    },
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(module(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(module(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(module()),
    // `assert(value)` with a truthy value passes without loading node:assert (undici asserts on
    // every request); any other call is the module's own.
    apply: (_, self, args: unknown[]) =>
      args.length > 0 && args[0] ? undefined : Reflect.apply(module() as (...a: unknown[]) => unknown, self, args),
  });
}

/** `require` with the modules of DEFERRED_BUILTINS deferred; every other id goes to `require`. */
export function deferringRequire(require: NodeJS.Require): NodeJS.Require {
  const standIns = new Map<string, unknown>();
  const deferring = ((id: string) => {
    const name = id.startsWith('node:') ? id : `node:${id}`;
    if (!Object.hasOwn(DEFERRED_BUILTINS, name)) return require(id);
    const options = DEFERRED_BUILTINS[name];
    let standIn = standIns.get(name);
    if (standIn === undefined) standIns.set(name, (standIn = deferredModule(() => require(name), options)));
    return standIn;
  }) as NodeJS.Require;
  return Object.assign(deferring, { resolve: require.resolve, cache: require.cache, main: require.main, extensions: require.extensions });
}
