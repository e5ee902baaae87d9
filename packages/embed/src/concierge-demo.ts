// The bundled sample thread of `demo`: shown with no key, no request and no metering.
export const DEMO_BOOTSTRAP = {
  enabled: true,
  displayName: 'Demo Bistro assistant',
  welcomeMessage: 'Hi! Ask me anything about our menu.',
  disclosure:
    "You are chatting with an AI assistant. Its answers come from the restaurant's menu and may be incomplete; check allergens with the staff.",
  currency: 'USD',
  testMode: false,
};

export const DEMO_THREAD = [
  { role: 'user' as const, text: 'Anything light and vegetarian?' },
  {
    role: 'assistant' as const,
    text: 'The burrata with heirloom tomatoes is light and vegetarian. It contains milk.',
    cards: [
      {
        itemId: 'itm_demo1',
        name: 'Burrata with heirloom tomatoes',
        priceCents: 1400,
        currency: 'USD',
        thumbnailUrl: null,
        url: '#burrata',
      },
    ],
  },
];
