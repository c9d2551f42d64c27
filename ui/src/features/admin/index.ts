export { AdminScreen } from './admin-screen';
