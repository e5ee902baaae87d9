export { DEMO_MENU, type DemoDish, type DemoSection, type DishKind } from './demo-menu.js';
export { createDishModel, createSampleDishGlb, createSampleDishUsdz, createSampleThumbnailPng } from './dish-model.js';
export { meshToGlb } from './glb.js';
export type { Mesh } from './mesh.js';
export { plateMesh } from './tableware.js';
export { usdaToUsdz } from './usdz.js';
