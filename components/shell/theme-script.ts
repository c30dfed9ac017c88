// Kept free of 'use client' so the server layout can inline it in <head>.
export const THEME_STORAGE_KEY = 'doorwatch-theme';
/**
 * Runs before first paint so there is no flash of the wrong theme. A pinned choice (light/dark, from
 * localStorage) goes in `data-theme-choice`; `data-theme` always holds the theme shown — the pinned
 * one, else the system's — and follows the system when it changes, so the stylesheet needs a single
 * dark selector.
 */
export const THEME_BOOT_SCRIPT = `(function(){var d=document.documentElement,m=window.matchMedia('(prefers-color-scheme: dark)');try{var t=localStorage.getItem('${THEME_STORAGE_KEY}');if(t==='light'||t==='dark'){d.dataset.themeChoice=t;}}catch(e){}function f(){var c=d.dataset.themeChoice;d.dataset.theme=c==='light'||c==='dark'?c:m.matches?'dark':'light';}f();if(m.addEventListener){m.addEventListener('change',f);}else if(m.addListener){m.addListener(f);}})();`;
