// Setting a field an input row names, without ever touching a prototype. `__proto__` is the one key
// whose plain assignment reaches Object.prototype (its setter would replace the object's prototype);
// every other key, `constructor` and `toString` included, becomes an own property by assignment.
// So only that key takes the slow `Object.defineProperty` path: the import sets a field per cell and
// per compared field, and defineProperty costs ~8x a plain assignment (nine fields on 100,000 rows:
// ~250 ms against ~30 ms on the bench machine), a few per cent of an unchanged import's CPU.
export function setOwnField(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
