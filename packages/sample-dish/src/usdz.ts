import yazl from 'yazl';
import { plateMesh, type Mesh } from './geometry.js';

const tuple = (values: number[], size: number) => {
  const out: string[] = [];
  for (let i = 0; i < values.length; i += size) out.push(`(${values.slice(i, i + size).join(', ')})`);
  return out.join(', ');
};

/** The mesh as a USD ASCII layer, in metres, Y up. */
export function meshToUsda(mesh: Mesh): string {
  return `#usda 1.0
(
    defaultPrim = "Plate"
    metersPerUnit = 1
    upAxis = "Y"
)

def Xform "Plate"
{
    def Mesh "Mesh"
    {
        int[] faceVertexCounts = [${Array(mesh.indices.length / 3)
          .fill(3)
          .join(', ')}]
        int[] faceVertexIndices = [${mesh.indices.join(', ')}]
        point3f[] points = [${tuple(mesh.positions, 3)}]
        normal3f[] normals = [${tuple(mesh.normals, 3)}] (
            interpolation = "vertex"
        )
        color3f[] primvars:displayColor = [(0.95, 0.93, 0.88)]
        uniform token subdivisionScheme = "none"
    }
}
`;
}

/** A USDZ: an uncompressed zip whose first (default) layer is the USD file. */
export async function usdaToUsdz(usda: string, name = 'dish.usda'): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(usda), name, { compress: false, mtime: new Date(0) });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export const createSampleDishUsdz = (): Promise<Buffer> => usdaToUsdz(meshToUsda(plateMesh()));
