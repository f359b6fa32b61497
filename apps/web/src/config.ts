/** Build-time settings of the web client (Vite `VITE_*` variables). */
export const config = {
  productName: 'Data Catalogue',
  /** External getting-started guide shown in the sidebar; a page shipped with the app by default. */
  startGuideUrl: import.meta.env.VITE_START_GUIDE_URL || './start-guide.html',
  /** Below this width the sidebar starts closed (spec section 9). */
  narrowBreakpointPx: 768,
} as const;
