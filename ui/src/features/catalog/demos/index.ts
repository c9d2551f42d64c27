import type { ComponentType } from 'react';
import type { CatalogDemo } from '../../../config/paths';
import { ButtonDemo } from './button-demo';
import { CheckboxDemo } from './checkbox-demo';
import { ModalDemo } from './modal-demo';
import { PanelDemo } from './panel-demo';
import { SelectDemo } from './select-demo';
import { TextAreaDemo } from './text-area-demo';
import { TextInputDemo } from './text-input-demo';

/** The demo screen of every catalog entry, by slug. */
export const demoScreens: Record<CatalogDemo, ComponentType> = {
  button: ButtonDemo,
  textinput: TextInputDemo,
  textarea: TextAreaDemo,
  select: SelectDemo,
  checkbox: CheckboxDemo,
  panel: PanelDemo,
  modal: ModalDemo,
};
