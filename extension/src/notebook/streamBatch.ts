// Collects stream text between flushes so a cell printing 10,000 lines makes a few output
// updates, not 10,000. Adjacent chunks of the same stream merge; order across streams is kept.

export interface StreamChunk {
  name: string;
  text: string;
}

export class StreamBatch {
  private chunks: StreamChunk[] = [];

  push(name: string, text: string): void {
    const last = this.chunks[this.chunks.length - 1];
    if (last?.name === name) last.text += text;
    else this.chunks.push({ name, text });
  }

  get empty(): boolean {
    return this.chunks.length === 0;
  }

  take(): StreamChunk[] {
    const chunks = this.chunks;
    this.chunks = [];
    return chunks;
  }
}
