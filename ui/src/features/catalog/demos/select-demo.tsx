import { useState } from 'react';
import { Select, type SelectOption } from '../../../components';
import { DemoPage, DemoSection, Readout } from '../demo-page';

const themes: SelectOption[] = [
  { value: '1', label: 'Default' },
  { value: '2', label: 'Serif' },
  { value: '3', label: 'Mono' },
  { value: '4', label: 'Dark' },
];

export function SelectDemo() {
  const [theme, setTheme] = useState('1');
  const [block, setBlock] = useState('');
  const label = themes.find((option) => option.value === theme)?.label ?? 'none';

  return (
    <DemoPage
      name="Select"
      intro="A labelled native select: keyboard and screen-reader behaviour come from the browser."
    >
      <DemoSection title="Basic">
        <Select label="Theme" options={themes} value={theme} onChange={setTheme} />
        <Readout>Selected: {label}</Readout>
      </DemoSection>

      <DemoSection title="With a placeholder and an error">
        <Select
          label="Block type"
          placeholder="Choose a block type"
          options={[
            { value: 'heading', label: 'heading' },
            { value: 'paragraph', label: 'paragraph' },
            { value: 'link', label: 'link' },
          ]}
          value={block}
          onChange={setBlock}
          error={block === '' ? "Can't be blank" : null}
        />
      </DemoSection>

      <DemoSection title="Disabled">
        <Select label="Disabled select" options={themes} value="2" onChange={() => undefined} disabled />
      </DemoSection>
    </DemoPage>
  );
}
