// A pool of resources (ports, profiles, mocks) shared by tasks that run a few at a time.

/** Run at most `size` tasks at once; each gets one of the `resources` for itself while it runs. */
export class Pool<R> {
  private readonly idle: R[];
  private readonly waiting: Array<(resource: R) => void> = [];

  constructor(resources: readonly R[]) {
    this.idle = [...resources];
  }

  async use<T>(task: (resource: R) => Promise<T>): Promise<T> {
    const resource = this.idle.pop() ?? (await new Promise<R>((resolve) => this.waiting.push(resolve)));
    try {
      return await task(resource);
    } finally {
      const next = this.waiting.shift();
      if (next) next(resource);
      else this.idle.push(resource);
    }
  }
}
