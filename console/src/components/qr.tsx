// A QR code drawn as SVG rectangles (uqr encodes; no inline markup, so the CSP is untouched).
import { encode } from "uqr";

export function QrCode({ text, label }: { text: string; label: string }) {
  const { data, size } = encode(text, { border: 2 });
  const cells: string[] = [];
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) cells.push(`M${x} ${y}h1v1h-1z`);
    });
  });
  return (
    <svg viewBox={`0 0 ${size} ${size}`} width="200" height="200" role="img" aria-label={label} className="qr">
      <rect width={size} height={size} fill="#fff" />
      <path d={cells.join("")} fill="#000" />
    </svg>
  );
}
