// ELK on the page's own thread (elk.bundled): for the unit tests in Node, the whole-graph layout
// of bench/, and the view's fallback where no layout worker can start (elkWorker.ts). Made on
// first use: its GWT start-up costs the page hundreds of milliseconds that the worker, when it
// runs, spares it. Each call still answers asynchronously (through setTimeout), so independent
// calls are started together.
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkNode } from 'elkjs/lib/elk-api';

let elk: InstanceType<typeof ELK> | undefined;

export function runElk<T extends object>(graph: T): Promise<T> {
  elk ??= new ELK();
  return elk.layout(graph as unknown as ElkNode) as unknown as Promise<T>;
}
