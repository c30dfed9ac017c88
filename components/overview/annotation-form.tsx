'use client';
// A note on the time charts from the overview (admin): text, optional tags and server, at now.
// Posted through lib/ui/writes.ts; the charts' markers refetch with the annotations query.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { queryKeys } from '@/lib/ui/query-defs';
import { writes } from '@/lib/ui/writes';

export function AnnotationForm({ server }: { server: string }) {
  const qc = useQueryClient();
  const [text, setText] = useState('');
  const [tags, setTags] = useState('');
  const add = useMutation({
    mutationFn: () =>
      writes.createAnnotation({
        text,
        tags: tags.split(/[\s,]+/).filter(Boolean),
        ...(server ? { server } : {}),
      }),
    onSuccess: () => {
      setText('');
      setTags('');
      void qc.invalidateQueries({ queryKey: [...queryKeys.all, 'annotations'] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim()) add.mutate();
  };
  return (
    // Wraps on a phone: two inputs and a button side by side pushed a 390 px page to 419 px.
    <form
      className="row gap small"
      style={{ flexWrap: 'wrap' }}
      onSubmit={submit}
      data-testid="annotation-form"
      aria-label="Add a note to the charts"
    >
      <input
        aria-label="Note"
        placeholder={`Note on the charts${server ? ` for ${server}` : ''} (e.g. deployed v2.3.1)`}
        value={text}
        maxLength={1000}
        onChange={(e) => setText(e.target.value)}
        style={{ flex: '2 1 12rem', minWidth: 0 }}
      />
      <input
        aria-label="Tags"
        placeholder="tags (deploy, v2.3.1)"
        value={tags}
        onChange={(e) => setTags(e.target.value)}
        style={{ flex: '1 1 8rem', minWidth: 0 }}
      />
      <button type="submit" disabled={add.isPending || !text.trim()}>
        Add note
      </button>
      {add.isError && (
        <span className="error" role="alert">
          {add.error instanceof Error ? add.error.message : 'the note was not saved'}
        </span>
      )}
    </form>
  );
}
