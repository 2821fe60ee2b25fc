// The text of elkjs's worker script, bundled by extension/esbuild.mjs (its `elkWorkerSource`
// plugin): the graph view starts its layout worker from it (elkWorker.ts).
declare module 'elkjs-worker-source' {
  const text: string;
  export default text;
}
