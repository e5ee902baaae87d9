/**
 * Words that say nothing about which dish is meant: dropped from questions and from dish text alike.
 * Besides the grammar of a question ("do you have anything with"), this holds the words of a vague
 * request ("what do you recommend tonight?", "any starters?"): a question made only of these gets the
 * menu's first dishes, whereas one with a word the menu lacks ("sushi") gets none (docs/concierge-retrieval.md).
 * Lower case, as `tokenize` gives them, before stemming; "n't" arrives joined to its verb ("cant": a negation, below).
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  // Grammar.
  ...['a', 'about', 'after', 'all', 'both', 'also', 'am', 'an', 'and', 'any', 'anything', 'are', 'as', 'at', 'be', 'been', 'but', 'by'],
  ...['can', 'could', 'did', 'do', 'does', 'either', 'else', 'even', 'for', 'from', 'got', 'had', 'has', 'have', 'having', 'he'],
  ...['her', 'here', 'him', 'his', 'how', 'if', 'in', 'into', 'is', 'it', 'its', 'just', 'let', 'll', 'many', 'may', 'me', 'might'],
  ...['more', 'most', 'much', 'must', 'my', 'of', 'on', 'one', 'only', 'or', 'other', 'our', 'out', 're', 'really', 'she', 'should'],
  ...['so', 'some', 'something', 'that', 'the', 'their', 'them', 'then', 'there', 'these', 'they', 'this', 'those', 'to', 'too'],
  ...['up', 'us', 've', 'very', 'was', 'we', 'were', 'what', 'whats', 'when', 'where', 'which', 'who', 'will', 'with', 'would'],
  ...['yes', 'you', 'your', 'yours'],
  // Asking, wanting, greeting.
  ...['bring', 'choose', 'eat', 'eating', 'find', 'get', 'give', 'go', 'hello', 'hey', 'hi', 'know', 'like', 'list', 'looking', 'love'],
  ...['need', 'order', 'please', 'prefer', 'see', 'serve', 'served', 'show', 'tell', 'thank', 'thanks', 'think', 'try', 'want'],
  ...['wondering', 'mean', 'meant'],
  // A vague request: what to have, when, how good.
  ...['available', 'best', 'choice', 'choices', 'course', 'courses', 'delicious', 'dinner', 'dish', 'dishes', 'entree', 'entrees'],
  ...['everything', 'favorite', 'favourite', 'food', 'foods', 'good', 'great', 'hungry', 'item', 'items', 'kind', 'lunch', 'main'],
  ...['mains', 'meal', 'menu', 'new', 'nice', 'offer', 'option', 'options', 'plate', 'popular', 'recommend', 'recommendation'],
  ...['recommendations', 'restaurant', 'starter', 'starters', 'appetizer', 'appetizers', 'suggest', 'suggestion', 'suggestions'],
  ...['tasty', 'today', 'tonight', 'type', 'kid', 'kids', 'child', 'children', 'share', 'sharing'],
  // Asking about allergens ("which dishes contain eggs?", "I can't tolerate tree nuts"): the allergen is the word that counts.
  ...['contain', 'contains', 'containing', 'include', 'includes', 'including', 'inside', 'ingredient', 'ingredients', 'safe', 'ok', 'okay'],
  ...['tolerate', 'take', 'handle', 'tree'],
]);

/**
 * The words that make a question exclude what they govern ("no nuts", "nut-free", "allergic to milk").
 * Between a negation and the first word it governs, `linking` words may stand ("can not eat any
 * shellfish"); `list` words carry it on to the next ("no nuts or eggs").
 */
export const NEGATIONS = {
  /** Govern the words after them: "no nuts", "without gluten", "not fried". */
  before: new Set([
    ...['no', 'not', 'without', 'nothing', 'avoid', 'avoiding', 'except', 'excluding', 'minus', 'hold', 'never', 'none', 'cannot'],
    // Contractions as `wordsOf` joins them ("can't" → "cant").
    ...['dont', 'doesnt', 'didnt', 'cant', 'wont', 'isnt', 'arent', 'shouldnt', 'couldnt', 'wouldnt', 'mustnt', 'havent', 'hasnt'],
  ]),
  /** Govern the words before them ("nut-free", "milk allergy"), or after them across to, of or from ("allergic to milk"). */
  after: new Set(['free', 'allergy', 'allergies', 'allergic', 'intolerance', 'intolerant']),
  linking: new Set([
    ...['to', 'of', 'from', 'any', 'anything', 'the', 'a', 'an', 'with', 'eat', 'eating', 'have', 'having', 'like', 'want', 'too'],
    ...['much', 'very', 'really', 'tree', 'contain', 'containing', 'include', 'including', 'tolerate', 'take', 'handle'],
    ...['both', 'all', 'do', 'does', 'for', 'me'],
  ]),
  list: new Set(['and', 'or', 'nor']),
} as const;
