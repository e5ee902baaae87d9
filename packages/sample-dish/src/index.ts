export { plateMesh, type Mesh } from './geometry.js';
export { createSampleDishGlb, meshToGlb } from './glb.js';
export { createSampleThumbnailPng } from './thumbnail.js';
export { createSampleDishUsdz, meshToUsda, usdaToUsdz } from './usdz.js';
