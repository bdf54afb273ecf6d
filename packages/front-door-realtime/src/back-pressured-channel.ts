import WebSocket from 'ws';

/**
 * One direction of a session: messages sent to `destination`, counting the bytes not yet flushed to its socket. Over
 * `highWaterBytes` the `source` socket is paused (it stops being read, so TCP slows its sender down); once the queue
 * is back under half of it, the source is resumed. Memory per direction is thus bounded by about `highWaterBytes` plus
 * one message, whatever the sender does.
 */
export class BackPressuredChannel {
  #queuedBytes = 0;
  #paused = false;

  constructor(
    private readonly source: WebSocket,
    private readonly destination: WebSocket,
    private readonly highWaterBytes: number,
  ) {}

  /** Bytes sent but not yet flushed to the destination's socket. */
  get queuedBytes(): number {
    return this.#queuedBytes;
  }

  /** True while the source is paused because the destination reads too slowly. */
  get paused(): boolean {
    return this.#paused;
  }

  /** Sends one text message (a string or its UTF-8 bytes); dropped when the destination is no longer open. */
  send(data: string | Buffer): void {
    if (this.destination.readyState !== WebSocket.OPEN) return;
    const size = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    this.#queuedBytes += size;
    this.destination.send(data, { binary: false }, () => {
      this.#queuedBytes -= size;
      if (this.#paused && this.#queuedBytes <= this.highWaterBytes / 2) {
        this.#paused = false;
        this.source.resume();
      }
    });
    if (!this.#paused && this.#queuedBytes > this.highWaterBytes) {
      this.#paused = true;
      this.source.pause();
    }
  }
}
