import { useState } from 'react';
import { Button, Checkbox } from '../../../components';
import { DemoPage, DemoSection, Readout } from '../demo-page';

export function CheckboxDemo() {
  const [understood, setUnderstood] = useState(false);
  const [draft, setDraft] = useState(true);

  return (
    <DemoPage name="Checkbox" intro="A native checkbox with a clickable label.">
      <DemoSection title="Basic">
        <Checkbox label="I understand what I'm going to do." checked={understood} onChange={setUnderstood} />
        <Readout>Checked: {understood ? 'yes' : 'no'}</Readout>
        <div className="catalog-row">
          <Button variant="danger" disabled={!understood}>
            Delete Account
          </Button>
        </div>
      </DemoSection>

      <DemoSection title="With a hint">
        <Checkbox
          label="Mark as draft"
          checked={draft}
          onChange={setDraft}
          hint="Drafts are not shown on the public blog."
        />
      </DemoSection>

      <DemoSection title="Disabled">
        <Checkbox label="Disabled, unchecked" checked={false} onChange={() => undefined} disabled />
        <Checkbox label="Disabled, checked" checked onChange={() => undefined} disabled />
      </DemoSection>
    </DemoPage>
  );
}
