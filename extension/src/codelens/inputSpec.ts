// Input shapes as the user types them ("2,3,32,32:float32; 8x128:int32"). Pure, unit-tested.

const SPEC = /^\d+(?:[,x]\d+)*(?::[a-z]+\d*)?$/;
const DTYPES = new Set([
  'float16',
  'float32',
  'float64',
  'bfloat16',
  'int8',
  'int16',
  'int32',
  'int64',
  'uint8',
  'bool',
]);

/** Splits on ";" or whitespace between specs; undefined when any spec is malformed. */
export function parseInputSpecs(text: string): string[] | undefined {
  const specs = text
    .split(/[;\s]+/)
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (!specs.length) return undefined;
  for (const spec of specs) {
    if (!SPEC.test(spec)) return undefined;
    const dtype = spec.split(':')[1];
    if (dtype && !DTYPES.has(dtype)) return undefined;
  }
  return specs;
}

export function validateInputSpecs(text: string): string | undefined {
  return parseInputSpecs(text)
    ? undefined
    : 'One shape per input, e.g. 2,3,32,32:float32 or 8x128:int32; separate inputs with ";".';
}
