/**
 * A dinner plate at true size: a 27 cm disc, 2 cm tall, as a closed triangle mesh (top, bottom,
 * side). The same geometry feeds the GLB and the USDZ, so both formats show the same dish.
 */
export interface Mesh {
  positions: number[];
  normals: number[];
  indices: number[];
}

export function plateMesh(options: { radius?: number; height?: number; segments?: number } = {}): Mesh {
  const radius = options.radius ?? 0.135;
  const height = options.height ?? 0.02;
  const segments = options.segments ?? 48;
  const positions: number[] = [];
  const normals: number[] = [];
  const indices: number[] = [];
  const ring = (y: number, normal: (angle: number) => [number, number, number]) => {
    const start = positions.length / 3;
    for (let i = 0; i < segments; i++) {
      const angle = (i / segments) * Math.PI * 2;
      positions.push(Math.cos(angle) * radius, y, Math.sin(angle) * radius);
      normals.push(...normal(angle));
    }
    return start;
  };
  const cap = (y: number, up: boolean) => {
    const center = positions.length / 3;
    positions.push(0, y, 0);
    normals.push(0, up ? 1 : -1, 0);
    const start = ring(y, () => [0, up ? 1 : -1, 0]);
    for (let i = 0; i < segments; i++) {
      const a = start + i;
      const b = start + ((i + 1) % segments);
      indices.push(...(up ? [center, b, a] : [center, a, b]));
    }
  };
  cap(height, true);
  cap(0, false);
  const side = (angle: number): [number, number, number] => [Math.cos(angle), 0, Math.sin(angle)];
  const top = ring(height, side);
  const bottom = ring(0, side);
  for (let i = 0; i < segments; i++) {
    const next = (i + 1) % segments;
    indices.push(top + i, top + next, bottom + i, bottom + i, top + next, bottom + next);
  }
  return { positions, normals, indices };
}
