/** A point on screen, in pixels, y down. */
type Point = [number, number];

/**
 * Calls `visit` for every pixel centre inside a screen triangle with its barycentric weights. Only
 * triangles wound counter-clockwise on screen (y down: clockwise) are drawn, so back faces are culled.
 */
export function fillTriangle(
  a: Point,
  b: Point,
  c: Point,
  width: number,
  height: number,
  visit: (x: number, y: number, wa: number, wb: number, wc: number) => void,
) {
  const area = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  if (area >= 0) return;
  const minX = Math.max(0, Math.floor(Math.min(a[0], b[0], c[0])));
  const maxX = Math.min(width - 1, Math.ceil(Math.max(a[0], b[0], c[0])));
  const minY = Math.max(0, Math.floor(Math.min(a[1], b[1], c[1])));
  const maxY = Math.min(height - 1, Math.ceil(Math.max(a[1], b[1], c[1])));
  // Each weight is an edge function, linear in x and y: w = dx * x + dy * y + k.
  const edge = (p: Point, q: Point) => {
    const [dx, dy] = [-(q[1] - p[1]) / area, (q[0] - p[0]) / area];
    return { dx, dy, k: -(dx * p[0] + dy * p[1]) };
  };
  const [ea, eb, ec] = [edge(b, c), edge(c, a), edge(a, b)];
  for (let y = minY; y <= maxY; y++) {
    const py = y + 0.5;
    for (let x = minX; x <= maxX; x++) {
      const px = x + 0.5;
      const wa = ea.dx * px + ea.dy * py + ea.k;
      const wb = eb.dx * px + eb.dy * py + eb.k;
      const wc = ec.dx * px + ec.dy * py + ec.k;
      if (wa >= 0 && wb >= 0 && wc >= 0) visit(x, y, wa, wb, wc);
    }
  }
}
