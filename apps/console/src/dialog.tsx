import type { ComponentChildren } from 'preact';

/** A modal panel with a title (`role="dialog"`, labelled by its heading). */
export function Dialog({ title, children }: { title: string; children: ComponentChildren }) {
  const id = `dialog-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <div class="backdrop">
      <section class="dialog" role="dialog" aria-modal="true" aria-labelledby={id}>
        <h2 id={id}>{title}</h2>
        {children}
      </section>
    </div>
  );
}
