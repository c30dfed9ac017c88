// The few server settings the browser's rendering depends on, handed over by the root layout
// (app/layout.tsx reads them from lib/config/settings) through <Providers>: the browser has no
// environment of its own, and these must match what the server meant.
import { createContext, useContext } from 'react';
import { DEFAULT_ALARM_HOLD_MS } from '@/lib/config/alarm-defaults';

export interface UiSettings {
  /** How long the overview's alarm holds a level after its cause cleared (DOORWATCH_ALARM_HOLD_MS). */
  alarmHoldMs: number;
}

export const UiSettingsContext = createContext<UiSettings>({ alarmHoldMs: DEFAULT_ALARM_HOLD_MS });

export const useUiSettings = (): UiSettings => useContext(UiSettingsContext);
