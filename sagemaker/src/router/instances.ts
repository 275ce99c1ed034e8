// The instances of the router's one production variant: N containers, each new bidirectional
// stream or response-stream call routed to the healthy instance with the fewest outstanding
// requests, as a variant with RoutingStrategy LEAST_OUTSTANDING_REQUESTS routes ("to the specific
// instances that have more capacity to process them", AWS's API reference). An open stream counts
// as outstanding until it ends. Ties rotate (AWS does not say how it breaks them), so equal
// instances take turns.
//
// Health, as SageMaker keeps it (the instance's GET /ping must answer 200 for it to get traffic):
// every instance is pinged every `healthCheckIntervalMs`, and one that fails a connection, or
// whose stream breaks abnormally, is taken out of the rotation at once and pinged again then, so
// that the streams a dead instance dropped resume on a survivor. With one instance there is no
// one to fail over to: everything goes to it whatever its health (the single-container router).
// When no instance is healthy the least loaded one is tried anyway (its failure is the answer).

export interface Instance {
  readonly index: number;
  /** http(s)://host:port of the container. */
  readonly http: string;
  /** ws(s)://host:port of the container. */
  readonly ws: string;
  outstanding: number;
  /** Requests routed to it since start. */
  routed: number;
  healthy: boolean;
}

export interface InstancePoolOptions {
  /** Default 2000 ms (AWS documents no interval; a local default that notices a dead instance soon). */
  healthCheckIntervalMs?: number;
  /** A /ping slower than this fails (SageMaker's documented /ping limit: 2 s). */
  pingTimeoutMs?: number;
}

export function containerUrls(url: string): { http: string; ws: string } {
  const parsed = new URL(url);
  if (!['http:', 'ws:', 'https:', 'wss:'].includes(parsed.protocol))
    throw new TypeError(`containerUrl must be http(s):// or ws(s)://, got ${url}`);
  const secure = parsed.protocol === 'https:' || parsed.protocol === 'wss:';
  const base = `${parsed.host}${parsed.pathname.replace(/\/$/, '')}`;
  return { http: `${secure ? 'https' : 'http'}://${base}`, ws: `${secure ? 'wss' : 'ws'}://${base}` };
}

export class InstancePool {
  readonly instances: readonly Instance[];
  readonly #pingTimeoutMs: number;
  readonly #checking = new Map<Instance, Promise<void>>();
  readonly #timer: NodeJS.Timeout | undefined;
  #next = 0;
  #closed = false;

  constructor(urls: readonly string[], options: InstancePoolOptions = {}) {
    if (urls.length === 0) throw new TypeError('the router needs at least one container URL');
    this.instances = urls.map((url, index) => ({
      index,
      ...containerUrls(url),
      outstanding: 0,
      routed: 0,
      healthy: true,
    }));
    this.#pingTimeoutMs = options.pingTimeoutMs ?? 2000;
    const interval = options.healthCheckIntervalMs ?? 2000;
    if (!(interval >= 10 && interval <= 2 ** 31 - 1))
      throw new RangeError(`healthCheckIntervalMs must be 10 ms to 24.8 days, not ${interval}`);
    if (this.instances.length > 1) {
      this.#timer = setInterval(() => {
        for (const instance of this.instances) void this.check(instance);
      }, interval);
      this.#timer.unref();
    }
  }

  /** The healthy instance with the fewest outstanding requests (any instance when none is healthy). */
  pick(): Instance {
    const n = this.instances.length;
    const anyHealthy = this.instances.some((i) => i.healthy);
    let best: Instance | undefined;
    for (let k = 0; k < n; k++) {
      const instance = this.instances[(this.#next + k) % n]!;
      if ((instance.healthy || !anyHealthy) && (!best || instance.outstanding < best.outstanding)) best = instance;
    }
    this.#next = (best!.index + 1) % n;
    return best!;
  }

  /** Routes one request: picks an instance and counts it outstanding until `done()`. */
  acquire(): { instance: Instance; done: () => void } {
    const instance = this.pick();
    instance.outstanding++;
    instance.routed++;
    let done = false;
    return {
      instance,
      done: () => {
        if (done) return;
        done = true;
        instance.outstanding--;
      },
    };
  }

  /** A failure that may mean the instance is gone: out of the rotation until a /ping answers 200. */
  suspect(instance: Instance): void {
    if (this.#closed || this.instances.length === 1) return;
    instance.healthy = false;
    void this.check(instance);
  }

  /** Pings the instance now (one check at a time per instance). */
  check(instance: Instance): Promise<void> {
    const running = this.#checking.get(instance);
    if (running) return running;
    const check = (async () => {
      try {
        const res = await fetch(`${instance.http}/ping`, { signal: AbortSignal.timeout(this.#pingTimeoutMs) });
        await res.arrayBuffer();
        instance.healthy = res.status === 200;
      } catch {
        instance.healthy = false;
      } finally {
        this.#checking.delete(instance);
      }
    })();
    this.#checking.set(instance, check);
    return check;
  }

  close(): void {
    this.#closed = true;
    clearInterval(this.#timer);
  }
}
