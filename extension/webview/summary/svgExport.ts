// A chart as standalone SVG text (the export). Pure: every label is XML-escaped.
import { escapeHtml as escapeXml } from '../../src/panels/escape';

export interface SvgLine {
  label: string;
  color: string;
  points: [number, number][];
}

const SAFE_COLOR = /^#[0-9a-fA-F]{3,8}$/;

export function chartSvg(title: string, width: number, height: number, lines: SvgLine[]): string {
  const paths = lines.map((l, i) => {
    const color = SAFE_COLOR.test(l.color) ? l.color : '#888888';
    const d = l.points
      .map(([x, y], j) => `${j ? 'L' : 'M'}${x.toFixed(1)},${y.toFixed(1)}`)
      .join('');
    const legend = `<text x="${60 + i * 140}" y="${height + 14}" fill="${color}">${escapeXml(l.label)}</text>`;
    return `<path d="${d}" fill="none" stroke="${color}" stroke-width="1.5"/>${legend}`;
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height + 20}" font-family="sans-serif" font-size="11">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="100%" height="100%" fill="white"/>`,
    ...paths,
    '</svg>',
  ].join('\n');
}
