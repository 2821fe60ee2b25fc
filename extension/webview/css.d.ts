// esbuild loads .css imports as files in the panel bundles and as text in the renderer bundle.
declare module '*.css' {
  const text: string;
  export default text;
}
