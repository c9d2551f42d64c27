export { ConsentScreen } from './consent-screen';
