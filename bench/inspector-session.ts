// A minimal Chrome DevTools Protocol client for a child process started with `--inspect=127.0.0.1:0`: the bench starts
// and stops V8's profiler around the window it measures, in the same warm process, instead of profiling its whole life.

/** The `ws://` address the child printed on stderr ("Debugger listening on ws://…"). */
export async function inspectorUrl(stderr: () => string): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const match = /Debugger listening on (ws:\/\/\S+)/.exec(stderr());
    if (match?.[1]) return match[1];
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the process did not print its inspector address\n${stderr()}`);
}

export class InspectorSession {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  private readonly socket: WebSocket;

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
      const waiter = message.id === undefined ? undefined : this.pending.get(message.id);
      if (!waiter || message.id === undefined) return;
      this.pending.delete(message.id);
      if (message.error) waiter.reject(new Error(message.error.message));
      else waiter.resolve(message.result);
    });
  }

  static open(url: string): Promise<InspectorSession> {
    const socket = new WebSocket(url);
    return new Promise((resolve, reject) => {
      socket.addEventListener("open", () => resolve(new InspectorSession(socket)), { once: true });
      socket.addEventListener("error", () => reject(new Error(`cannot reach the inspector at ${url}`)), { once: true });
    });
  }

  send(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  close(): void {
    this.socket.close();
  }
}
