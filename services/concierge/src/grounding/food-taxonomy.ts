/**
 * What a dish's words imply: each category and the words (one or two) that belong to it, so that
 * "any fish?" finds the salmon and "something with cheese" the burrata. A category may belong to
 * another (mozzarella → cheese → dairy): `food-categories.ts` follows the chain and stems every word.
 * Dish words imply categories; a question's words are never widened ("tuna?" does not find the salmon).
 * Only words whose meaning on a menu is plain: "fillet" (fish or beef) and "pepper" (spice or vegetable)
 * are left out, and potatoes are not vegetables here (a diner asking for vegetables does not mean fries). The allergen names (`allergen-vocabulary.ts`) read these categories: a dish in "dairy"
 * is taken to contain milk even when it does not declare it.
 */
export const FOOD_TAXONOMY: Readonly<Record<string, readonly string[]>> = {
  seafood: ['fish', 'crustacean', 'mollusc', 'shellfish'],
  fish: [
    ...['salmon', 'tuna', 'cod', 'haddock', 'hake', 'halibut', 'trout', 'mackerel', 'sardine', 'anchovy', 'sea bass', 'seabass'],
    ...['branzino', 'bream', 'sole', 'swordfish', 'monkfish', 'snapper', 'plaice', 'pollock', 'herring', 'turbot', 'tilapia', 'eel'],
    ...['bottarga', 'gravlax', 'lox', 'sashimi'],
  ],
  crustacean: ['prawn', 'shrimp', 'langoustine', 'crab', 'lobster', 'crayfish', 'scampi'],
  mollusc: ['squid', 'calamari', 'octopus', 'cuttlefish', 'mussel', 'clam', 'oyster', 'scallop', 'cockle', 'vongole', 'escargot'],
  dairy: ['cheese', 'milk', 'cream', 'butter', 'yogurt', 'yoghurt', 'buttermilk', 'ghee', 'ice cream', 'creme fraiche'],
  cheese: [
    ...['burrata', 'mozzarella', 'parmesan', 'mascarpone', 'ricotta', 'pecorino', 'gorgonzola', 'feta', 'halloumi', 'cheddar'],
    ...['brie', 'camembert', 'stracciatella', 'provolone', 'taleggio', 'fontina', 'grana', 'parmigiano', 'manchego', 'gruyere'],
    ...['fior di latte', 'goat cheese', 'paneer'],
  ],
  meat: ['beef', 'pork', 'chicken', 'lamb', 'veal', 'venison', 'rabbit', 'poultry', 'meatball', 'duck', 'turkey', 'goat'],
  beef: ['steak', 'sirloin', 'ribeye', 'brisket', 'bresaola', 'oxtail', 'wagyu', 'bavette', 'tenderloin'],
  poultry: ['chicken', 'duck', 'turkey', 'quail', 'goose'],
  pork: ['bacon', 'ham', 'prosciutto', 'pancetta', 'guanciale', 'chorizo', 'salami', 'mortadella', 'speck', 'porchetta', 'nduja'],
  lamb: ['mutton'],
  pizza: ['margherita', 'calzone', 'diavola'],
  pasta: [
    ...['spaghetti', 'linguine', 'penne', 'rigatoni', 'tagliatelle', 'pappardelle', 'fettuccine', 'lasagne', 'lasagna', 'ravioli'],
    ...['tortellini', 'orecchiette', 'fusilli', 'macaroni', 'bucatini', 'paccheri', 'gnocchi'],
  ],
  wheat: [
    ...['bread', 'flour', 'pasta', 'pizza', 'focaccia', 'ciabatta', 'sourdough', 'brioche', 'crouton', 'breadcrumb', 'couscous'],
    ...['ladyfinger', 'biscuit', 'pastry', 'semolina', 'bulgur', 'cannoli', 'croissant', 'bun', 'panko'],
  ],
  dessert: [
    ...['tiramisu', 'gelato', 'ice cream', 'sorbet', 'panna cotta', 'cannoli', 'cheesecake', 'brownie', 'cake', 'tart', 'mousse'],
    ...['pudding', 'affogato', 'creme brulee', 'semifreddo', 'profiterole', 'pavlova', 'crumble', 'sundae', 'zabaglione'],
  ],
  'ice cream': ['gelato', 'sundae', 'affogato'],
  sweet: ['dessert', 'chocolate', 'caramel', 'honey', 'cocoa', 'meringue'],
  nut: ['walnut', 'pistachio', 'almond', 'pecan', 'hazelnut', 'cashew', 'macadamia', 'pine nut', 'brazil nut', 'praline', 'marzipan'],
  peanut: ['satay', 'peanut butter'],
  egg: ['aioli', 'mayonnaise', 'mayo', 'omelette', 'frittata', 'custard', 'carbonara', 'meringue', 'hollandaise'],
  soy: ['tofu', 'miso', 'edamame', 'tempeh', 'soybean', 'tamari'],
  sesame: ['tahini', 'hummus'],
  mustard: ['dijon'],
  vegetable: [
    ...['greens', 'tomato', 'fennel', 'radish', 'pea', 'courgette', 'zucchini', 'aubergine', 'eggplant', 'onion', 'carrot'],
    ...['mushroom', 'asparagus', 'broccoli', 'cauliflower', 'beetroot', 'artichoke', 'leek', 'squash', 'pumpkin', 'bean', 'salad'],
    ...['cucumber', 'celery', 'corn', 'olive', 'shallot', 'chickpea', 'lentil'],
  ],
  greens: ['lettuce', 'little gem', 'spinach', 'kale', 'rocket', 'arugula', 'chard', 'watercress', 'cabbage', 'endive', 'radicchio'],
  salad: ['lettuce', 'little gem', 'rocket', 'arugula', 'watercress', 'caprese'],
  potato: ['fries', 'frites', 'chips', 'mash', 'gnocchi'],
  fries: ['frites'],
  rice: ['risotto', 'arborio', 'paella', 'sushi'],
  spicy: ['chilli', 'chili', 'jalapeno', 'nduja', 'harissa', 'sriracha', 'arrabbiata', 'diavola', 'cayenne'],
};
