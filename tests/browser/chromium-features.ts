// The Chromium features the browser tests (and bench:ui) launch with disabled.
//
// Chromium 156's headless mode is the whole browser: every browser context opens a window, and every
// window preloads the omnibox popup's WebUI (chrome://omnibox-popup.top-chrome/ and its "AI mode" page)
// in a renderer of its own, for a popup a headless test never opens. Measured 5 Dec 2026: ~2.5 s of
// Chromium CPU per context (that renderer ~1.4 s, the rest in the browser process and zygote), against
// ~2.7 s for loading the overview itself in a fresh context (docs/reliability.md, "Browser tests' CPU").
const OMNIBOX_POPUP_PRELOAD = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/**
 * What playwright-core 1.65.1 passes as `--disable-features` (chromiumSwitches.ts). Chromium honours only
 * the last `--disable-features` on its command line and Playwright puts the caller's after its own, so
 * ours must carry Playwright's too. tests/unit/chromium-features.test.ts fails when the installed
 * playwright-core disables one that is missing here.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/** The one `--disable-features` switch the browser tests launch Chromium with. */
export const disableFeaturesSwitch = (): string =>
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_POPUP_PRELOAD].join(',')}`;
