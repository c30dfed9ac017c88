// Kept free of 'use client' so the server layout can inline it in <head>.
export const THEME_STORAGE_KEY = 'doorwatch-theme';
/** Runs before first paint so there is no flash of the wrong theme. */
export const THEME_BOOT_SCRIPT = `(function(){try{var t=localStorage.getItem('${THEME_STORAGE_KEY}');if(t==='light'||t==='dark'){document.documentElement.dataset.theme=t;}}catch(e){}})();`;
