import type { ReactNode } from 'react';
import { Logo } from '../../components';

/** The landing page's message: the logo and what Quire is, then `children`. */
export function LandingHero({ children }: { children?: ReactNode }) {
  return (
    <main className="q-center-column q-center-page q-landing">
      <h1 className="q-landing__title">
        <Logo className="q-landing__logo" />
      </h1>
      <p className="q-landing__tagline">is a free blogging platform</p>
      {children}
    </main>
  );
}
