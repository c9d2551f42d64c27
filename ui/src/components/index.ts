// The widget library every screen (and the catalog) uses.
import './components.css';

export { Button, ButtonLink } from './button';
export type { ButtonLinkProps, ButtonProps, ButtonVariant } from './button';
export { Checkbox } from './checkbox';
export type { CheckboxProps } from './checkbox';
export { ErrorLine } from './error-line';
export { FileInput } from './file-input';
export type { FileInputProps } from './file-input';
export { Logo } from './logo';
export { Modal } from './modal';
export type { ModalProps } from './modal';
export { Pager } from './pager';
export { Panel } from './panel';
export type { PanelProps } from './panel';
export { SaveButton } from './save-button';
export type { SaveButtonProps } from './save-button';
export { Select } from './select';
export type { SelectOption, SelectProps } from './select';
export { Spinner } from './spinner';
export { TextArea } from './text-area';
export type { TextAreaProps } from './text-area';
export { TextInput } from './text-input';
export type { TextInputProps } from './text-input';
