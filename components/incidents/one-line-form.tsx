'use client';
// A labelled one-line text input and its submit button, as the incident page's note and silence
// use it. Blank text is not sent; the input empties only once the write succeeded (the caller says
// when, through `clear`), so a refused note is still there to fix.
import { useState, type ReactNode } from 'react';

export function OneLineForm({
  label,
  maxLength,
  button,
  inputTestId,
  buttonTestId,
  onSubmit,
  controls,
  children,
}: {
  label: ReactNode;
  maxLength: number;
  button: string;
  inputTestId: string;
  buttonTestId: string;
  onSubmit: (text: string, clear: () => void) => void;
  /** More of the request, between the input and the button (the silence's duration). */
  controls?: ReactNode;
  /** Shown after the button (the outcome of the last submit). */
  children?: ReactNode;
}) {
  const [text, setText] = useState('');
  return (
    <form
      className="form-row"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim()) onSubmit(text, () => setText(''));
      }}
    >
      <label className="grow">
        <span className="small muted">{label}</span>
        <input className="input" value={text} maxLength={maxLength} onChange={(e) => setText(e.target.value)} data-testid={inputTestId} />
      </label>
      {controls}
      <button type="submit" className="btn" data-testid={buttonTestId}>
        {button}
      </button>
      {children}
    </form>
  );
}
