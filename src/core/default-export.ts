// A library's default export, however it reached us. Under vitest a package is Node's own ES module
// (its default is the value). In the built CLI a library in a vendor bundle (scripts/vendor-bundles.mjs)
// is a CommonJS object that esbuild, in Node's mode, hands over whole as the default: for a CommonJS
// package (ajv, pg, yaml) that object is the value or holds it as `default`, for an ES module package
// (p-limit) it is the module's namespace, whose `default` is the value.
export function defaultExport(module: unknown): unknown {
  let value = (module as { default?: unknown }).default ?? module;
  if (typeof value !== 'function' && value && typeof (value as { default?: unknown }).default === 'function')
    value = (value as { default: unknown }).default;
  return value;
}
