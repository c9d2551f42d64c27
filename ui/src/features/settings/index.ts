export { SettingsScreen } from './settings-screen';
export type { SettingsScreenProps } from './settings-screen';
