import { useId, useState, type KeyboardEvent } from 'react';
import { Button, Checkbox } from '../../components';
import type { PostRules } from '../../config/app-config';
import { useLoad } from '../../lib/use-load';
import { checkTag, fetchTags } from './tags';

export interface TagFieldProps {
  blogId: number;
  tags: string[];
  onChange: (tags: string[]) => void;
  /** The server's message about the tags, if any. */
  error?: string | undefined;
  /** The tag rules; null leaves the checking to the server. */
  rules: PostRules | null;
}

/**
 * The post's tags: each shown with a remove button, and a text field that adds what is typed on
 * Enter or a comma, checked with the server's rules and messages. The blog's tags are offered as
 * suggestions (a native datalist, so the keyboard and screen readers work as everywhere).
 */
export function TagField({ blogId, tags, onChange, error, rules }: TagFieldProps) {
  const id = `q-tags-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // The blog's tags are asked for once the field is first used, not with every editor.
  const [wanted, setWanted] = useState(false);
  const known = useLoad(wanted ? (signal) => fetchTags(blogId, signal) : null, [blogId, wanted]);
  const full = rules !== null && tags.length >= rules.maxTags;

  const add = () => {
    const typed = text
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t !== '');
    if (typed.length === 0) return;
    const next = [...tags];
    for (const given of typed) {
      const checked = rules ? checkTag(given, rules) : { tag: given.toLowerCase() };
      if ('problem' in checked) {
        setProblem(`${given}: ${checked.problem}`);
        return;
      }
      if (next.includes(checked.tag)) continue;
      if (rules && next.length >= rules.maxTags) {
        setProblem(`A post can have at most ${rules.maxTags} tags`);
        return;
      }
      next.push(checked.tag);
    }
    setProblem(null);
    setText('');
    onChange(next);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      add();
    }
  };

  const suggestions =
    known.status === 'ready' ? known.data.map((t) => t.name).filter((name) => !tags.includes(name)) : [];
  const message = problem ?? error;
  return (
    <div className="q-tag-field">
      <label htmlFor={id} className="q-field__label">
        Tags
      </label>
      {tags.length > 0 && (
        <ul className="q-tag-field__tags" aria-label="Tags of this post">
          {tags.map((tag) => (
            <li key={tag} className="q-tag-field__tag">
              <span>{tag}</span>
              <Button
                variant="link"
                aria-label={`Remove tag ${tag}`}
                onClick={() => onChange(tags.filter((t) => t !== tag))}
              >
                ×
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div className="q-tag-field__row">
        <input
          id={id}
          className="q-input"
          value={text}
          list={`${id}-suggestions`}
          disabled={full}
          placeholder={full ? 'No more tags' : 'e.g. road-trip'}
          aria-describedby={`${id}-hint${message ? ` ${id}-error` : ''}`}
          aria-invalid={message ? true : undefined}
          onChange={(event) => {
            setText(event.target.value);
            setProblem(null);
          }}
          onKeyDown={onKeyDown}
          onFocus={() => setWanted(true)}
        />
        <Button variant="secondary" onClick={add} disabled={full || text.trim() === ''}>
          Add tag
        </Button>
      </div>
      <datalist id={`${id}-suggestions`}>
        {suggestions.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <p id={`${id}-hint`} className="q-field__hint">
        Lowercase words joined by hyphens{rules ? `, up to ${rules.maxTags} tags` : ''}. Press Enter to add one.
      </p>
      {message && (
        <p id={`${id}-error`} className="q-field__error" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}

/** 'Show as a page': the post gets its own address and a place in the blog's navigation. */
export function PageToggle({
  page,
  onChange,
  error,
}: {
  page: boolean;
  onChange: (page: boolean) => void;
  error?: string | undefined;
}) {
  return (
    <Checkbox
      label="Show as a page"
      hint="A page (About, Now, Contact) has its own address, is listed in the blog's navigation and not among the posts."
      checked={page}
      onChange={onChange}
      error={error}
      className="q-post-editor__page"
    />
  );
}
