import { boundsOf, type Mesh } from './mesh.js';
import type { Part } from './part.js';

/** A USD prim name: letters, digits and underscores, not starting with a digit. */
const primName = (name: string) => name.replace(/[^A-Za-z0-9_]/g, '_').replace(/^(?=\d)/, '_');

// Five decimals of a metre (10 µm) and four of a normal are plenty, and keep the uncompressed USDZ small.
const number = (value: number, digits: number) => String(Number(value.toFixed(digits)));

const tuples = (values: number[], digits: number) => {
  const out: string[] = [];
  for (let i = 0; i < values.length; i += 3)
    out.push(`(${number(values[i]!, digits)},${number(values[i + 1]!, digits)},${number(values[i + 2]!, digits)})`);
  return out.join(',');
};

function meshPrim(name: string, mesh: Mesh, materialPath: string): string {
  const { min, max } = boundsOf(mesh.positions);
  return `
    def Mesh "${name}" (
        prepend apiSchemas = ["MaterialBindingAPI"]
    )
    {
        float3[] extent = [${tuples([...min, ...max], 5)}]
        int[] faceVertexCounts = [${new Array<number>(mesh.indices.length / 3).fill(3).join(',')}]
        int[] faceVertexIndices = [${mesh.indices.join(',')}]
        rel material:binding = <${materialPath}>
        normal3f[] normals = [${tuples(mesh.normals, 4)}] (
            interpolation = "vertex"
        )
        point3f[] points = [${tuples(mesh.positions, 5)}]
        uniform token subdivisionScheme = "none"
    }
`;
}

/** A UsdPreviewSurface material: AR Quick Look shows these colours, where displayColor alone is ignored. */
function materialPrim(name: string, { color, roughness, opacity }: Part['material'], path: string): string {
  return `
        def Material "${name}"
        {
            token outputs:surface.connect = <${path}/Surface.outputs:surface>

            def Shader "Surface"
            {
                uniform token info:id = "UsdPreviewSurface"
                color3f inputs:diffuseColor = (${color.map((c) => number(c, 4)).join(', ')})
                float inputs:metallic = 0
                float inputs:opacity = ${number(opacity, 3)}
                float inputs:roughness = ${number(roughness, 3)}
                token outputs:surface
            }
        }
`;
}

/** The parts as a USD ASCII layer in metres, Y up: one Mesh per part bound to its own material. */
export function partsToUsda(parts: Part[], root = 'Dish'): string {
  const materialPath = (name: string) => `/${root}/Materials/${primName(name)}`;
  return `#usda 1.0
(
    defaultPrim = "${root}"
    metersPerUnit = 1
    upAxis = "Y"
)

def Xform "${root}" (
    kind = "component"
)
{${parts.map(({ name, mesh, material }) => meshPrim(primName(name), mesh, materialPath(material.name))).join('')}
    def Scope "Materials"
    {${parts.map(({ material }) => materialPrim(primName(material.name), material, materialPath(material.name))).join('')}    }
}
`;
}
