/** A stream that can hold writes back (a socket, a child's stdin). */
interface Corkable {
  cork(): void;
  uncork(): void;
}

const corked = new WeakSet<Corkable>();

/**
 * Holds a stream's writes until the current tick's callbacks have run, so the messages written
 * in one tick (several answers in one read of a server's stdout) leave in one system call.
 */
export function corkForTick(stream: Corkable | null | undefined): void {
  if (!stream || corked.has(stream)) return;
  corked.add(stream);
  stream.cork();
  process.nextTick(() => {
    corked.delete(stream);
    stream.uncork();
  });
}
