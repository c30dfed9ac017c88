'use client';
import { useEffect, useState } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
import { THEME_STORAGE_KEY as KEY } from './theme-script';

function systemPrefersDark(): boolean {
  return typeof window !== 'undefined' && window.matchMedia('(prefers-color-scheme: dark)').matches;
}

export function effectiveTheme(choice: ThemeChoice): 'light' | 'dark' {
  return choice === 'system' ? (systemPrefersDark() ? 'dark' : 'light') : choice;
}

/** Pins (or unpins) the theme; `data-theme` always holds the theme shown (see theme-script.ts). */
export function applyTheme(choice: ThemeChoice) {
  const root = document.documentElement;
  if (choice === 'system') delete root.dataset.themeChoice;
  else root.dataset.themeChoice = choice;
  root.dataset.theme = effectiveTheme(choice);
  try {
    if (choice === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    /* private mode */
  }
  window.dispatchEvent(new CustomEvent('doorwatch-theme', { detail: choice }));
}

export function readThemeChoice(): ThemeChoice {
  if (typeof document === 'undefined') return 'system';
  const t = document.documentElement.dataset.themeChoice;
  return t === 'light' || t === 'dark' ? t : 'system';
}

/** The theme actually shown (follows the OS when the choice is "system"). */
export function useEffectiveTheme(): 'light' | 'dark' {
  const [theme, setTheme] = useState<'light' | 'dark'>('light');
  useEffect(() => {
    const update = () => setTheme(effectiveTheme(readThemeChoice()));
    update();
    const mq = window.matchMedia('(prefers-color-scheme: dark)');
    mq.addEventListener('change', update);
    window.addEventListener('doorwatch-theme', update);
    return () => {
      mq.removeEventListener('change', update);
      window.removeEventListener('doorwatch-theme', update);
    };
  }, []);
  return theme;
}

export function cycleTheme() {
  const now = effectiveTheme(readThemeChoice());
  applyTheme(now === 'dark' ? 'light' : 'dark');
}

export function ThemeToggle() {
  const theme = useEffectiveTheme();
  const [choice, setChoice] = useState<ThemeChoice>('system');
  useEffect(() => {
    const sync = () => setChoice(readThemeChoice());
    sync();
    window.addEventListener('doorwatch-theme', sync);
    return () => window.removeEventListener('doorwatch-theme', sync);
  }, []);
  return (
    <div className="seg" role="group" aria-label="Theme">
      <button
        type="button"
        className="btn btn-ghost"
        onClick={cycleTheme}
        title={`Theme: ${choice === 'system' ? `system (${theme})` : theme} — click to switch (d)`}
        aria-label={`Theme: ${theme} (switch to ${theme === 'dark' ? 'light' : 'dark'})`}
        data-testid="theme-toggle"
      >
        <span aria-hidden="true">{theme === 'dark' ? '☾' : '☀'}</span>
        {theme === 'dark' ? 'Dark' : 'Light'}
      </button>
      {choice !== 'system' && (
        <button
          type="button"
          className="btn btn-ghost btn-xs"
          onClick={() => applyTheme('system')}
          title="Follow the system theme"
          aria-label="Theme: follow the system"
        >
          auto
        </button>
      )}
    </div>
  );
}
