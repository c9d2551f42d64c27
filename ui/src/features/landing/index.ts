export { fetchInstance } from './api';
export { InstanceShowcase } from './instance-showcase';
export { LandingHero } from './landing-hero';
export { OperatorLinks, signupModeLine } from './signup-terms';
export type { OperatorLinksProps } from './signup-terms';
