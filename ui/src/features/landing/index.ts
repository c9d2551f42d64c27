export { LandingHero } from './landing-hero';
