/** A PBR material as both formats need it: linear base colour, roughness, opacity; never metallic. */
export interface Material {
  name: string;
  color: [number, number, number];
  roughness: number;
  opacity: number;
}

const toLinear = (channel: number) => (channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4);

/** A material from an sRGB hex colour as a designer picks it (glTF and USD both want linear values). */
export function material(name: string, hex: string, roughness: number, opacity = 1): Material {
  const value = Number.parseInt(hex.replace('#', ''), 16);
  const [r, g, b] = [(value >> 16) & 255, (value >> 8) & 255, value & 255].map((channel) => toLinear(channel / 255)) as [
    number,
    number,
    number,
  ];
  return { name, color: [r, g, b], roughness, opacity };
}
