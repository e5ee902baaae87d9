declare module 'gltf-validator' {
  export interface ValidationReport {
    issues: { numErrors: number; numWarnings: number; messages: { code: string; message: string; severity: number; pointer?: string }[] };
  }
  export function validateBytes(data: Uint8Array, options?: { maxIssues?: number; format?: 'glb' | 'gltf' }): Promise<ValidationReport>;
}
