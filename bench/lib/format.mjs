// How the bench writes its figures: ratios, times, sizes, counts. One place, so every section's rows
// and detail tables read alike.
export const MiB = 1 << 20;

export const r2 = (x) => x.toFixed(2);
export const ms = (x) => (x < 100 ? `${x.toFixed(1)} ms` : `${Math.round(x)} ms`);
export const sec = (x) => `${(x / 1000).toFixed(2)} s`;
export const mib = (kib) => `${(kib / 1024).toFixed(1)} MiB`;
export const int = (n) => n.toLocaleString('en-US');
export const pct = (x) => `${Math.round(x * 100)}%`;
/** A CPU time, or `n/a` where it could not be read (no GNU time). */
export const cpuText = (x) => (x === undefined || Number.isNaN(x) ? 'n/a' : ms(x));
