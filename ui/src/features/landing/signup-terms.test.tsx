import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OperatorLinks, signupModeLine } from './signup-terms';

describe('signup mode line', () => {
  it('says in plain words what each mode means, and nothing under open', () => {
    expect(signupModeLine('open')).toBeNull();
    expect(signupModeLine('approval')).toBe('New blogs are reviewed before they are listed.');
    expect(signupModeLine('invite')).toBe('Signups are by invitation.');
    expect(signupModeLine('closed')).toBe('Signups are closed.');
  });
});

describe('operator links', () => {
  it('links the pages the operator gave and the contact address', () => {
    render(<OperatorLinks termsUrl="/terms" privacyUrl={null} contactEmail="ops@example.com" />);
    expect(screen.getByRole('link', { name: 'Terms' })).toHaveAttribute('href', '/terms');
    expect(screen.queryByRole('link', { name: 'Privacy' })).toBeNull();
    expect(screen.getByRole('link', { name: 'ops@example.com' })).toHaveAttribute('href', 'mailto:ops@example.com');
    expect(screen.getByText(/Contact:/)).toBeInTheDocument();
  });

  it('renders nothing when the operator gave nothing', () => {
    const { container } = render(<OperatorLinks termsUrl={null} privacyUrl={null} />);
    expect(container).toBeEmptyDOMElement();
  });
});
