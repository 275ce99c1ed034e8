// A single-consumer async queue: producers push events as frames arrive, one `for await` reads them
// in order. Ending is explicit (finish) and a fatal error is re-thrown to the reader after the
// events queued before it.

export class EventQueue<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #waiter: ((result: IteratorResult<T>) => void) | null = null;
  #failWaiter: ((error: unknown) => void) | null = null;
  #finished = false;
  #error: unknown = undefined;
  #iterating = false;

  get finished(): boolean {
    return this.#finished;
  }

  push(item: T): void {
    if (this.#finished) return;
    const waiter = this.#waiter;
    if (waiter) {
      this.#waiter = this.#failWaiter = null;
      waiter({ value: item, done: false });
    } else {
      this.#items.push(item);
    }
  }

  /** No more events; the reader finishes after the queued ones (or throws `error` after them). */
  finish(error?: unknown): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#error = error;
    if (this.#waiter) {
      const waiter = this.#waiter;
      const failWaiter = this.#failWaiter;
      this.#waiter = this.#failWaiter = null;
      if (error === undefined) waiter({ value: undefined, done: true });
      else failWaiter?.(error);
    }
  }

  /** Drop queued events that match (used by cancel so nothing stale is delivered). */
  discard(predicate: (item: T) => boolean): void {
    this.#items = this.#items.filter((item) => !predicate(item));
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.#iterating) throw new Error('events() has a single consumer: it is already being iterated');
    this.#iterating = true;
    return {
      next: () => {
        const item = this.#items.shift();
        if (item !== undefined) return Promise.resolve({ value: item, done: false });
        if (this.#finished) {
          if (this.#error !== undefined) {
            const error = this.#error;
            this.#error = undefined;
            return Promise.reject(error);
          }
          return Promise.resolve({ value: undefined, done: true });
        }
        return new Promise((resolve, reject) => {
          this.#waiter = resolve;
          this.#failWaiter = reject;
        });
      },
      return: () => {
        this.#finished = true;
        this.#items = [];
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
