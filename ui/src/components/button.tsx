import type { ComponentPropsWithRef, ReactNode } from 'react';
import { Link } from 'react-router';
import { cx } from '../lib/cx';
import { Spinner } from './spinner';

/** Visual style: main action, neutral action, destructive action, or a text link look-alike. */
export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'link';

export interface ButtonProps extends Omit<ComponentPropsWithRef<'button'>, 'type'> {
  variant?: ButtonVariant;
  /** Shows a spinner and disables the button while work is in progress. */
  loading?: boolean;
  /** Defaults to `button` so a button inside a form never submits by accident. */
  type?: 'button' | 'submit' | 'reset';
  /** Stretches the button to the width of its container. */
  block?: boolean;
}

function buttonClass(variant: ButtonVariant, block: boolean, extra?: string, loading?: boolean): string {
  return cx('q-button', `q-button--${variant}`, block && 'q-button--block', loading && 'q-button--loading', extra);
}

/** The app's button. */
export function Button({
  variant = 'primary',
  loading = false,
  block = false,
  type = 'button',
  disabled,
  className,
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      className={buttonClass(variant, block, className, loading)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
    >
      {loading && <Spinner />}
      <span className="q-button__label">{children}</span>
    </button>
  );
}

interface ButtonLinkBase extends Omit<ComponentPropsWithRef<'a'>, 'href'> {
  variant?: ButtonVariant;
  block?: boolean;
  children: ReactNode;
}

export type ButtonLinkProps =
  | (ButtonLinkBase & { /** An app route, e.g. paths.newPost. */ to: string; href?: never; newTab?: never })
  | (ButtonLinkBase & {
      /** An external address. */ href: string;
      to?: never;
      /** Opens in a new tab. */ newTab?: boolean;
    });

/** A link that looks like a Button: app routes through the router (`to`), other sites by `href`. */
export function ButtonLink({ variant = 'secondary', block = false, className, children, ...rest }: ButtonLinkProps) {
  const classes = buttonClass(variant, block, className);
  if (rest.to !== undefined) {
    const { to, ...anchor } = rest;
    return (
      <Link {...anchor} to={to} className={classes}>
        <span className="q-button__label">{children}</span>
      </Link>
    );
  }
  const { href, newTab, ...anchor } = rest;
  return (
    <a
      {...anchor}
      href={href}
      className={classes}
      {...(newTab ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
    >
      <span className="q-button__label">{children}</span>
    </a>
  );
}
