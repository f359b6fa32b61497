import { createSystem, defaultConfig, defineConfig } from '@chakra-ui/react';

/**
 * Chakra UI's default theme with the light-mode colours that fail WCAG AA contrast (axe-core's
 * color-contrast rule, 4.5:1 for text) darkened: white text on the solid buttons and badges (on
 * teal.600 it is 3.7:1), also under the mouse, where a solid is shown at 90 % (so a solid needs
 * about 5:1 on its own); fg.subtle (gray.400 is 2.6:1 on white); and the error, warning and
 * success text colours (red.500 is 3.8:1).
 */
const accessibleColours = defineConfig({
  theme: {
    semanticTokens: {
      colors: {
        fg: {
          subtle: { value: { _light: '{colors.gray.600}', _dark: '{colors.gray.400}' } },
          error: { value: { _light: '#b91c1c', _dark: '{colors.red.400}' } },
          warning: { value: { _light: '#c2410c', _dark: '{colors.orange.300}' } },
          success: { value: { _light: '#15803d', _dark: '{colors.green.300}' } },
        },
        teal: {
          solid: { value: { _light: '#0d6e66', _dark: '{colors.teal.700}' } },
          // The focus ring must stand out from white too (3:1 for non-text contrast).
          focusRing: { value: { _light: '{colors.teal.600}', _dark: '{colors.teal.500}' } },
        },
        green: { solid: { value: { _light: '#127035', _dark: '{colors.green.700}' } } },
        orange: { solid: { value: { _light: '#b23a0a', _dark: '{colors.orange.700}' } } },
        red: { solid: { value: { _light: '#b91c1c', _dark: '{colors.red.700}' } } },
        blue: { solid: { value: { _light: '#1d4ed8', _dark: '{colors.blue.700}' } } },
        cyan: { solid: { value: { _light: '#0e6a85', _dark: '{colors.cyan.700}' } } },
        purple: { solid: { value: { _light: '#6b21a8', _dark: '{colors.purple.700}' } } },
        pink: { solid: { value: { _light: '#9d174d', _dark: '{colors.pink.700}' } } },
      },
    },
  },
});

export const system = createSystem(defaultConfig, accessibleColours);
