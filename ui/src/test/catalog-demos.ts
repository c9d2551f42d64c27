// The catalog's side navigation as a visitor sees it: each demo's link text and address, in
// order. The component test (catalog.test.tsx) and the end-to-end test (e2e/catalog.spec.ts) both
// hold the app to it. Written out rather than taken from config/paths.ts, so that a change there
// fails both until it is made here on purpose.
export const CATALOG_DEMO_LINKS = [
  ['Button', '/catalog/button'],
  ['TextInput', '/catalog/textinput'],
  ['TextArea', '/catalog/textarea'],
  ['Select', '/catalog/select'],
  ['Checkbox', '/catalog/checkbox'],
  ['Panel', '/catalog/panel'],
  ['Modal', '/catalog/modal'],
] as const;
