import type { DishKind } from '../demo-menu.js';
import type { Part } from '../part.js';
import { burrata } from './burrata.js';
import { calamari } from './calamari.js';
import { gardenSalad } from './garden-salad.js';
import { gelato } from './gelato.js';
import { margherita } from './margherita.js';
import { salmon } from './salmon.js';
import { steakFrites } from './steak-frites.js';
import { tiramisu } from './tiramisu.js';

const RECIPES: Record<DishKind, () => Part[]> = {
  burrata,
  calamari,
  'garden-salad': gardenSalad,
  margherita,
  'steak-frites': steakFrites,
  salmon,
  tiramisu,
  gelato,
};

/** The parts of a demo dish at true size, in metres, Y up, resting on y = 0. */
export const buildDish = (kind: DishKind): Part[] => RECIPES[kind]();
